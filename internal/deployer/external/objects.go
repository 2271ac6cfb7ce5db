package external

import (
	"encoding/base64"
	"encoding/json"
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/failure"
)

// Landscaper's API group and the resources of its kinds this deployer writes.
const (
	apiVersion = "landscaper.gardener.cloud/v1alpha1"
)

var (
	// DeployItems, Targets and Contexts: the resources of Landscaper's kinds.
	DeployItems = schema.GroupVersionResource{Group: "landscaper.gardener.cloud", Version: "v1alpha1", Resource: "deployitems"}
	Targets     = schema.GroupVersionResource{Group: "landscaper.gardener.cloud", Version: "v1alpha1", Resource: "targets"}
	Contexts    = schema.GroupVersionResource{Group: "landscaper.gardener.cloud", Version: "v1alpha1", Resource: "contexts"}
	secrets     = schema.GroupVersionResource{Version: "v1", Resource: "secrets"}
)

// KubeconfigKey is the key of the Secret a Target references for a
// kubeconfig the provider block holds (Landscaper's default key).
const KubeconfigKey = "kubeconfig"

// Annotations, finalizer and values of Landscaper's API that deployers read.
const (
	// AnnotationDeployerType and AnnotationTargetName let a deployer decide
	// from an item's metadata alone whether it is responsible.
	AnnotationDeployerType = "landscaper.gardener.cloud/deployer-type"
	AnnotationTargetName   = "landscaper.gardener.cloud/deployer-target-name"
	noTargetName           = ".noTargetName"
	// AnnotationReconcileTime is written by Landscaper whenever it updates
	// an item from its template (older deployers removed it at pickup).
	AnnotationReconcileTime = "landscaper.gardener.cloud/reconcile-time"
	// AnnotationOperation with OperationAbort and AnnotationAbortTime ask
	// the deployer to stop the running job.
	AnnotationOperation = "landscaper.gardener.cloud/operation"
	OperationAbort      = "abort"
	AnnotationAbortTime = "landscaper.gardener.cloud/abort-time"
	// AnnotationDeleteWithoutUninstall marks an item whose deletion must
	// leave what it deployed.
	AnnotationDeleteWithoutUninstall = "landscaper.gardener.cloud/delete-without-uninstall"
	// Finalizer keeps a DeployItem until its deployer has uninstalled it.
	Finalizer = "finalizer.landscaper.gardener.cloud"
	// ExportKey is the key of an export Secret that holds the exports.
	ExportKey = "config"
)

// fieldManager names this deployer in the objects' managed fields.
const fieldManager = "terraform-provider-landscaper"

// names are where an item's objects live; every name is derived from the
// item ID alone, so an apply after a lost state or an import finds them.
type names struct {
	namespace string
	// object is the name of the item's DeployItem, Target and Context
	// (each kind has its own names, so they can share it).
	object string
}

// ObjectName is the name of the DeployItem, Target and Context of the
// deploy item with this ID.
func ObjectName(itemID string) string { return nameFor(itemID) }

// nameFor returns the name of an item's objects: its name made a DNS label
// (for recognition) and a hash of the whole ID (for uniqueness). It stays
// within 40 characters, because deployers put the DeployItem's name into
// label values (at most 63) of what they deploy, and may add suffixes
// ("-export").
func nameFor(itemID string) string {
	last := itemID[strings.LastIndex(itemID, "/")+1:]
	var b strings.Builder
	for _, r := range strings.ToLower(last) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9':
			b.WriteRune(r)
		case b.Len() > 0 && !strings.HasSuffix(b.String(), "-"):
			b.WriteByte('-')
		}
		if b.Len() >= 22 {
			break
		}
	}
	prefix := strings.Trim(b.String(), "-")
	if prefix == "" {
		prefix = "item"
	}
	return prefix + "-" + deployer.OwnerValue(itemID)[:16]
}

// ownerMeta stamps the ownership labels the built-in deployers use on m
// (an object's metadata map), and the inventory's part-of label.
func ownerMeta(item deployer.Item, m map[string]any) {
	labels := map[string]any{deployer.OwnerLabel: deployer.OwnerValue(item.ID)}
	if item.Instance != "" {
		labels[deployer.InstanceLabel] = item.Instance
	}
	if item.PartOf != "" {
		labels[deployer.PartOfLabel] = item.PartOf
	}
	merge(m, "labels", labels)
	merge(m, "annotations", map[string]any{deployer.OwnerAnnotation: item.ID})
}

func merge(m map[string]any, field string, values map[string]any) {
	have, _ := m[field].(map[string]any)
	if have == nil {
		have = map[string]any{}
	}
	for k, v := range values {
		have[k] = v
	}
	m[field] = have
}

// deployItemObject is the DeployItem of item as Landscaper would write it
// from its template: type, target reference, context, config, timeout,
// the responsibility annotations and Landscaper's finalizer.
func deployItemObject(item deployer.Item, n names, config map[string]any, now time.Time) *unstructured.Unstructured {
	targetName := noTargetName
	spec := map[string]any{"type": item.Type, "context": n.object, "config": config, "timeout": timeoutValue(item.Timeouts.Progressing)}
	if item.Target != nil {
		targetName = n.object
		spec["target"] = map[string]any{"name": n.object, "namespace": n.namespace}
	}
	meta := map[string]any{
		"name": n.object, "namespace": n.namespace, "finalizers": []any{Finalizer},
		"annotations": map[string]any{
			AnnotationDeployerType:  item.Type,
			AnnotationTargetName:    targetName,
			AnnotationReconcileTime: now.UTC().Format(time.RFC3339),
		},
	}
	ownerMeta(item, meta)
	return &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": apiVersion, "kind": "DeployItem", "metadata": meta, "spec": spec,
	}}
}

// timeoutValue is spec.timeout as Landscaper writes a duration: "none"
// for no limit.
func timeoutValue(d time.Duration) string {
	if d <= 0 {
		return "none"
	}
	return d.String()
}

// fromProvider reports whether t takes its kubeconfig from the provider
// block (landscaper_target's kubeconfig_from_provider): it carries no
// kubeconfig, and its Target references a Secret this side writes.
func fromProvider(t *api.Target) bool {
	_, ok := t.Metadata.Annotations[api.KubeconfigFromProviderAnnotation]
	return ok && t.Spec.Type == api.KubernetesClusterTargetType
}

// kubeconfigSecretName is the name of the Secret that holds the
// provider block's kubeconfig of the item's target.
func kubeconfigSecretName(n names) string { return n.object + "-kubeconfig" }

// targetObject is the Target the DeployItem references: the item's target
// with its type, config, labels and annotations (deployers select targets
// by them, e.g. for fenced environments). A target whose kubeconfig the
// provider block holds references the Secret kubeconfigSecretObject
// writes instead (Landscaper's spec.secretRef).
func targetObject(item deployer.Item, n names) (*unstructured.Unstructured, error) {
	t := item.Target
	meta := map[string]any{"name": n.object, "namespace": n.namespace}
	if len(t.Metadata.Labels) > 0 {
		meta["labels"] = stringMap(t.Metadata.Labels)
	}
	annotations := stringMap(t.Metadata.Annotations)
	delete(annotations, api.KubeconfigFromProviderAnnotation) // a reference of this provider's, meaningless there
	if len(annotations) > 0 {
		meta["annotations"] = annotations
	}
	ownerMeta(item, meta)
	spec := map[string]any{"type": t.Spec.Type}
	switch {
	case fromProvider(t):
		spec["secretRef"] = map[string]any{"name": kubeconfigSecretName(n), "key": KubeconfigKey}
	case len(t.Spec.Config) > 0:
		var config any
		if err := json.Unmarshal(t.Spec.Config, &config); err != nil {
			// json errors quote types and offsets, never values.
			return nil, failure.Terminalf("InvalidTarget", "target %q: config is not JSON: %v", t.Metadata.Name, err)
		}
		spec["config"] = config
	}
	return &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": apiVersion, "kind": "Target", "metadata": meta, "spec": spec,
	}}, nil
}

// kubeconfigSecretObject is the Secret with the provider block's
// kubeconfig that the item's Target references.
func kubeconfigSecretObject(item deployer.Item, n names, kubeconfig string) *unstructured.Unstructured {
	meta := map[string]any{"name": kubeconfigSecretName(n), "namespace": n.namespace}
	ownerMeta(item, meta)
	return &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "v1", "kind": "Secret", "metadata": meta, "type": "Opaque",
		"data": map[string]any{KubeconfigKey: base64.StdEncoding.EncodeToString([]byte(kubeconfig))},
	}}
}

// contextObject is the Context the DeployItem names, with configuration
// (a Landscaper Context's fields besides its metadata; may be empty).
func contextObject(item deployer.Item, n names, configuration map[string]any) *unstructured.Unstructured {
	obj := map[string]any{}
	for k, v := range configuration {
		obj[k] = v
	}
	meta := map[string]any{"name": n.object, "namespace": n.namespace}
	ownerMeta(item, meta)
	obj["apiVersion"], obj["kind"], obj["metadata"] = apiVersion, "Context", meta
	return &unstructured.Unstructured{Object: obj}
}

func stringMap(m map[string]string) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// ownership says whether live may be written or deleted for item.
type ownership int

const (
	owned    ownership = iota
	adopted            // a newer instance of the installation holds it
	foreign            // another deploy item's (or nobody's of ours)
	notFound           // does not exist
)

func ownershipOf(live *unstructured.Unstructured, item deployer.Item) ownership {
	switch {
	case live == nil:
		return notFound
	case live.GetLabels()[deployer.OwnerLabel] != deployer.OwnerValue(item.ID):
		return foreign
	case deployer.AdoptedBy(live.GetLabels()[deployer.InstanceLabel], item.Instance):
		return adopted
	}
	return owned
}

// describe names an object for messages: "DeployItem namespace/name".
func describe(obj *unstructured.Unstructured) string {
	return obj.GetKind() + " " + obj.GetNamespace() + "/" + obj.GetName()
}
