package landscaperyaml

import (
	"encoding/json"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
)

// APIVersion is the group version of every object this package reads.
const APIVersion = "landscaper.gardener.cloud/v1alpha1"

// Kinds of the objects this package reads.
const (
	KindInstallation = "Installation"
	KindDataObject   = "DataObject"
	KindTarget       = "Target"
	KindContext      = "Context"
)

// Annotations of an Installation that this package interprets.
const (
	OperationAnnotation              = "landscaper.gardener.cloud/operation"
	DeleteWithoutUninstallAnnotation = "landscaper.gardener.cloud/delete-without-uninstall"
)

// The types below are the fields of Landscaper's v1alpha1 objects that a
// manifest may hold. They mirror the JSON names of Landscaper's API so
// that unknownFields can name whatever else a document contains.

// typeMeta is apiVersion and kind.
type typeMeta struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
}

// objectMeta is Kubernetes object metadata. Only name, namespace and
// annotations mean anything here; the rest is what the API server adds
// (a manifest exported with kubectl carries it) and is dropped.
type objectMeta struct {
	Name                       string            `json:"name"`
	Namespace                  string            `json:"namespace,omitempty"`
	Labels                     map[string]string `json:"labels,omitempty"`
	Annotations                map[string]string `json:"annotations,omitempty"`
	GenerateName               string            `json:"generateName,omitempty"`
	UID                        string            `json:"uid,omitempty"`
	ResourceVersion            string            `json:"resourceVersion,omitempty"`
	Generation                 json.RawMessage   `json:"generation,omitempty"`
	CreationTimestamp          json.RawMessage   `json:"creationTimestamp,omitempty"`
	DeletionTimestamp          json.RawMessage   `json:"deletionTimestamp,omitempty"`
	DeletionGracePeriodSeconds json.RawMessage   `json:"deletionGracePeriodSeconds,omitempty"`
	OwnerReferences            json.RawMessage   `json:"ownerReferences,omitempty"`
	Finalizers                 json.RawMessage   `json:"finalizers,omitempty"`
	ManagedFields              json.RawMessage   `json:"managedFields,omitempty"`
	SelfLink                   string            `json:"selfLink,omitempty"`
}

// installation is Landscaper's Installation.
type installation struct {
	typeMeta
	Metadata objectMeta       `json:"metadata"`
	Spec     installationSpec `json:"spec"`
	// Status is written by Landscaper's controllers; dropped.
	Status json.RawMessage `json:"status,omitempty"`
}

type installationSpec struct {
	Context             string                     `json:"context,omitempty"`
	Verification        json.RawMessage            `json:"verification,omitempty"`
	ComponentDescriptor *componentDescriptorDef    `json:"componentDescriptor,omitempty"`
	Blueprint           blueprintDef               `json:"blueprint"`
	Imports             installationImports        `json:"imports,omitempty"`
	ImportDataMappings  map[string]json.RawMessage `json:"importDataMappings,omitempty"`
	Exports             api.InstallationExports    `json:"exports,omitempty"`
	ExportDataMappings  map[string]json.RawMessage `json:"exportDataMappings,omitempty"`
	AutomaticReconcile  json.RawMessage            `json:"automaticReconcile,omitempty"`
	Optimization        json.RawMessage            `json:"optimization,omitempty"`
}

type componentDescriptorDef struct {
	Ref    *componentRef   `json:"ref,omitempty"`
	Inline json.RawMessage `json:"inline,omitempty"`
}

type componentRef struct {
	RepositoryContext json.RawMessage `json:"repositoryContext,omitempty"`
	ComponentName     string          `json:"componentName"`
	Version           string          `json:"version"`
}

type blueprintDef struct {
	Ref    *blueprintRef    `json:"ref,omitempty"`
	Inline *inlineBlueprint `json:"inline,omitempty"`
}

type blueprintRef struct {
	ResourceName string `json:"resourceName"`
}

type inlineBlueprint struct {
	Filesystem json.RawMessage `json:"filesystem"`
}

type installationImports struct {
	Data    []dataImport       `json:"data,omitempty"`
	Targets []api.TargetImport `json:"targets,omitempty"`
}

type dataImport struct {
	Name         string    `json:"name"`
	DataRef      string    `json:"dataRef,omitempty"`
	Version      string    `json:"version,omitempty"`
	SecretRef    *localRef `json:"secretRef,omitempty"`
	ConfigMapRef *localRef `json:"configMapRef,omitempty"`
}

// localRef is LocalSecretReference / LocalConfigMapReference: an object
// in the installation's namespace and, optionally, one of its keys.
type localRef struct {
	Name string `json:"name"`
	Key  string `json:"key,omitempty"`
}

// dataObject is Landscaper's DataObject: any JSON value under data.
type dataObject struct {
	typeMeta
	Metadata objectMeta      `json:"metadata"`
	Data     json.RawMessage `json:"data"`
}

// target is Landscaper's Target.
type target struct {
	typeMeta
	Metadata objectMeta      `json:"metadata"`
	Spec     targetSpec      `json:"spec"`
	Status   json.RawMessage `json:"status,omitempty"`
}

type targetSpec struct {
	Type      string          `json:"type"`
	Config    json.RawMessage `json:"config,omitempty"`
	SecretRef *localRef       `json:"secretRef,omitempty"`
}

// lsContext is Landscaper's Context: the repository context an
// Installation's componentDescriptor.ref defaults to, and registry access.
type lsContext struct {
	typeMeta
	Metadata                   objectMeta      `json:"metadata"`
	RepositoryContext          json.RawMessage `json:"repositoryContext,omitempty"`
	OCMConfig                  json.RawMessage `json:"ocmConfig,omitempty"`
	RegistryPullSecrets        json.RawMessage `json:"registryPullSecrets,omitempty"`
	Configurations             json.RawMessage `json:"configurations,omitempty"`
	ComponentVersionOverwrites string          `json:"componentVersionOverwrites,omitempty"`
	VerificationSignatures     json.RawMessage `json:"verificationSignatures,omitempty"`
}
