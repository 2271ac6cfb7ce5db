package landscaperstate

import (
	"encoding/json"
	"errors"
	"fmt"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/compress"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
)

// The fields of Landscaper's v1alpha1 objects the reader uses. Their JSON
// names are Landscaper's API.

type wireMeta struct {
	Name            string            `json:"name"`
	Namespace       string            `json:"namespace"`
	UID             string            `json:"uid"`
	ResourceVersion string            `json:"resourceVersion"`
	Labels          map[string]string `json:"labels"`
	Annotations     map[string]string `json:"annotations"`
	OwnerReferences []wireOwner       `json:"ownerReferences"`
}

type wireOwner struct {
	Kind       string `json:"kind"`
	Name       string `json:"name"`
	Controller *bool  `json:"controller"`
}

type wireRef struct {
	Name      string `json:"name"`
	Namespace string `json:"namespace"`
}

type wireError struct {
	Message string `json:"message"`
}

func (e *wireError) text() string {
	if e == nil {
		return ""
	}
	return e.Message
}

type wireNamePair struct {
	SpecName   string `json:"specName"`
	ObjectName string `json:"objectName"`
}

type wireInstallation struct {
	Metadata wireMeta        `json:"metadata"`
	Spec     json.RawMessage `json:"spec"`
	Status   struct {
		Phase         string     `json:"phase"`
		JobID         string     `json:"jobID"`
		JobIDFinished string     `json:"jobIDFinished"`
		ImportsHash   string     `json:"importsHash"`
		LastError     *wireError `json:"lastError"`
		ExecutionRef  *wireRef   `json:"executionRef"`
		SubInstCache  *struct {
			ActiveSubs   []wireNamePair `json:"activeSubs"`
			OrphanedSubs []string       `json:"orphanedSubs"`
		} `json:"subInstCache"`
	} `json:"status"`
}

// wireInstallationSpec is the part of spec the reader follows.
type wireInstallationSpec struct {
	Context string `json:"context"`
	Imports struct {
		Data []struct {
			Name    string `json:"name"`
			DataRef string `json:"dataRef"`
		} `json:"data"`
		Targets []struct {
			Name      string            `json:"name"`
			Target    string            `json:"target"`
			Targets   []string          `json:"targets"`
			TargetMap map[string]string `json:"targetMap"`
		} `json:"targets"`
	} `json:"imports"`
}

type wireExecution struct {
	Metadata wireMeta `json:"metadata"`
	Spec     struct {
		DeployItems           []wireTemplate `json:"deployItems"`
		DeployItemsCompressed []byte         `json:"deployItemsCompressed"`
	} `json:"spec"`
	Status struct {
		Phase           string   `json:"phase"`
		JobID           string   `json:"jobID"`
		JobIDFinished   string   `json:"jobIDFinished"`
		ExportRef       *wireRef `json:"exportRef"`
		DeployItemCache *struct {
			ActiveDIs   []wireNamePair `json:"activeDIs"`
			OrphanedDIs []string       `json:"orphanedDIs"`
		} `json:"deployItemCache"`
	} `json:"status"`
}

type wireTemplate struct {
	Name               string            `json:"name"`
	Type               string            `json:"type"`
	Target             *wireRef          `json:"target"`
	Labels             map[string]string `json:"labels"`
	Config             json.RawMessage   `json:"config"`
	DependsOn          []string          `json:"dependsOn"`
	Timeout            string            `json:"timeout"`
	UpdateOnChangeOnly bool              `json:"updateOnChangeOnly"`
}

// templates returns the Execution's deploy item templates; Landscaper
// stores them gzipped in deployItemsCompressed (older versions: plain).
func (e *wireExecution) templates() ([]wireTemplate, error) {
	if len(e.Spec.DeployItemsCompressed) == 0 {
		return e.Spec.DeployItems, nil
	}
	// A bound, so a hostile object cannot make the reader inflate
	// gigabytes; Kubernetes objects are at most ~1.5 MiB compressed.
	raw, err := compress.Gunzip(e.Spec.DeployItemsCompressed, maxTemplatesSize)
	if err != nil {
		return nil, fmt.Errorf("spec.deployItemsCompressed: %w", err)
	}
	var out []wireTemplate
	if err := json.Unmarshal(raw, &out); err != nil {
		return nil, fmt.Errorf("spec.deployItemsCompressed: not a list of deploy item templates: %s", jsonErrorWithoutValues(err))
	}
	return out, nil
}

const maxTemplatesSize = 64 << 20

type wireDeployItem struct {
	Metadata wireMeta `json:"metadata"`
	Spec     struct {
		Type   string          `json:"type"`
		Target *wireRef        `json:"target"`
		Config json.RawMessage `json:"config"`
	} `json:"spec"`
	Status struct {
		Phase          string          `json:"phase"`
		JobID          string          `json:"jobID"`
		JobIDFinished  string          `json:"jobIDFinished"`
		LastError      *wireError      `json:"lastError"`
		ProviderStatus json.RawMessage `json:"providerStatus"`
		ExportRef      *wireRef        `json:"exportRef"`
	} `json:"status"`
}

type wireTarget struct {
	Metadata wireMeta `json:"metadata"`
	Spec     struct {
		Type      string          `json:"type"`
		Config    json.RawMessage `json:"config"`
		SecretRef *struct {
			Name string `json:"name"`
			Key  string `json:"key"`
		} `json:"secretRef"`
	} `json:"spec"`
}

// decodeInto converts an unstructured object into one of the wire types.
func decodeInto(u *unstructured.Unstructured, into any) error {
	raw, err := json.Marshal(u.Object)
	if err != nil {
		return fmt.Errorf("%s: %w", deployer.RefOf(u.Object), err)
	}
	if err := json.Unmarshal(raw, into); err != nil {
		return fmt.Errorf("%s: %s", deployer.RefOf(u.Object), jsonErrorWithoutValues(err))
	}
	return nil
}

// jsonErrorWithoutValues names the field and the types of a decoding
// error but never the value (Targets and exports hold credentials).
func jsonErrorWithoutValues(err error) string {
	var typeErr *json.UnmarshalTypeError
	if errors.As(err, &typeErr) {
		return fmt.Sprintf("%s: a JSON %s where %s is expected", typeErr.Field, typeErr.Value, typeErr.Type)
	}
	var syntaxErr *json.SyntaxError
	if errors.As(err, &syntaxErr) {
		return fmt.Sprintf("invalid JSON at byte %d", syntaxErr.Offset)
	}
	return "cannot be decoded"
}

func (m wireMeta) ref(kind string) deployer.ObjectRef {
	return deployer.ObjectRef{APIVersion: APIVersion, Kind: kind, Namespace: m.Namespace, Name: m.Name, UID: m.UID}
}

// controller returns the name of the object's controlling owner of kind.
func (m wireMeta) controller(kind string) string {
	for _, o := range m.OwnerReferences {
		if o.Kind == kind && o.Controller != nil && *o.Controller {
			return o.Name
		}
	}
	return ""
}
