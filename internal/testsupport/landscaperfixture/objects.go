package landscaperfixture

import (
	"bytes"
	"compress/gzip"
	"crypto/sha1" //nolint:gosec // Landscaper names DataObjects and hashes their data with SHA-1; not a security use
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/landscaperstate"
)

// Landscaper's API names the fixture shares with the reader
// (landscaperstate); its DataObject naming too, which names_test pins to
// values computed independently.
const (
	APIVersion   = landscaperstate.APIVersion
	Group        = landscaperstate.Group
	Version      = landscaperstate.Version
	ManifestType = deployer.ManifestType
	HelmType     = deployer.HelmType
	// ManifestDeployItemLabel is what Landscaper's manifest deployer puts
	// on every object it applies; the value is the DeployItem's name.
	ManifestDeployItemLabel = deployer.LandscaperManifestItemLabel
	// HelmDeployItemLabel is what Landscaper's Helm deployer adds on the
	// objects of a chart it applies as manifests (helmDeployment: false).
	HelmDeployItemLabel = deployer.LandscaperHelmItemLabel
)

// Labels and annotations Landscaper's controllers set (their names are
// Landscaper's API; a migration has to recognise them).
const (
	labelEncompassedBy    = "landscaper.gardener.cloud/encompassed-by"
	annSubinstallation    = "landscaper.gardener.cloud/subinstallation-name"
	labelExecManagedBy    = "execution.landscaper.gardener.cloud/managed-by"
	labelExecName         = "execution.landscaper.gardener.cloud/name"
	annDependsOn          = "execution.landscaper.gardener.cloud/dependsOn"
	annDeployerType       = "landscaper.gardener.cloud/deployer-type"
	annDeployerTargetName = "landscaper.gardener.cloud/deployer-target-name"
	annReconcileTime      = "landscaper.gardener.cloud/reconcile-time"
	finalizer             = "finalizer.landscaper.gardener.cloud"

	labelDOContext    = "data.landscaper.gardener.cloud/context"
	labelDOSourceType = "data.landscaper.gardener.cloud/sourceType"
	labelDOSource     = "data.landscaper.gardener.cloud/source"
	labelDOKey        = "data.landscaper.gardener.cloud/key"
	labelDOJobID      = "data.landscaper.gardener.cloud/jobid"
	annDOHash         = "data.landscaper.gardener.cloud/hash"
)

type object = map[string]any

// dataObjectName and installationContext are Landscaper's naming of
// the DataObjects and Targets it records data in.
var (
	dataObjectName      = landscaperstate.DataObjectName
	installationContext = landscaperstate.InstallationContext
)

// dataHash is the hash annotation of a DataObject: hex SHA-1 of its data
// as Landscaper marshals it (indented by two spaces).
func dataHash(data any) string {
	raw, err := json.MarshalIndent(data, "", "  ")
	if err != nil {
		panic(err) // the fixture's own literals
	}
	sum := sha1.Sum(raw) //nolint:gosec // Landscaper's hash annotation
	return hex.EncodeToString(sum[:])
}

// meta is object metadata the way Landscaper writes it.
type meta struct {
	name, namespace string
	labels          map[string]string
	annotations     map[string]string
	finalizers      bool
	owners          []owner
}

// owner is an owner reference; UIDs are filled in by Create once the
// owner exists (an API server assigns them).
type owner struct {
	kind, name string
	controller bool
}

func (m meta) build() object {
	md := object{"name": m.name, "namespace": m.namespace}
	if len(m.labels) > 0 {
		md["labels"] = stringMap(m.labels)
	}
	if len(m.annotations) > 0 {
		md["annotations"] = stringMap(m.annotations)
	}
	if m.finalizers {
		md["finalizers"] = []any{finalizer}
	}
	if len(m.owners) > 0 {
		refs := make([]any, 0, len(m.owners))
		for _, o := range m.owners {
			ref := object{"apiVersion": APIVersion, "kind": o.kind, "name": o.name, "uid": placeholderUID(o.kind, o.name)}
			if o.controller {
				ref["controller"], ref["blockOwnerDeletion"] = true, true
			}
			refs = append(refs, ref)
		}
		md["ownerReferences"] = refs
	}
	return md
}

// placeholderUID stands for an owner's UID until Create knows the real one.
func placeholderUID(kind, name string) string { return "uid-of-" + kind + "/" + name }

func stringMap(m map[string]string) object {
	out := object{}
	for k, v := range m {
		out[k] = v
	}
	return out
}

func newObject(kind string, m meta, fields object) *unstructured.Unstructured {
	u := object{"apiVersion": APIVersion, "kind": kind, "metadata": m.build()}
	for k, v := range fields {
		u[k] = v
	}
	return &unstructured.Unstructured{Object: jsonRoundTrip(u)}
}

// jsonRoundTrip turns Go literals into the JSON-shaped values
// (map[string]any, []any, int64/float64, string) unstructured expects.
func jsonRoundTrip(v object) object {
	raw, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	out := object{}
	if err := json.Unmarshal(raw, &out); err != nil {
		panic(err)
	}
	normalizeNumbers(out)
	return out
}

// normalizeNumbers turns whole float64s into int64, as the API server's
// decoding does, so unstructured deep copies accept them.
func normalizeNumbers(v any) any {
	switch t := v.(type) {
	case map[string]any:
		for k, e := range t {
			t[k] = normalizeNumbers(e)
		}
		return t
	case []any:
		for i, e := range t {
			t[i] = normalizeNumbers(e)
		}
		return t
	case float64:
		if t == float64(int64(t)) {
			return int64(t)
		}
		return t
	default:
		return v
	}
}

// compressTemplates is how Landscaper keeps an Execution's deploy item
// templates: gzip of their JSON in spec.deployItemsCompressed (bytes,
// base64 in JSON).
func compressTemplates(templates []any) []byte {
	raw, err := json.Marshal(templates)
	if err != nil {
		panic(err)
	}
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	if _, err := zw.Write(raw); err != nil {
		panic(err)
	}
	if err := zw.Close(); err != nil {
		panic(err)
	}
	return buf.Bytes()
}

// condition is one entry of a status' conditions.
func condition(kind, reason, message, at string) object {
	return object{"type": kind, "status": "True", "reason": reason, "message": message,
		"lastTransitionTime": at, "lastUpdateTime": at}
}

// generatedName is a name as the API server makes it from generateName:
// the prefix and five characters, fixed here so tests can name them.
func generatedName(prefix, suffix string) string {
	if len(suffix) != 5 || strings.ToLower(suffix) != suffix {
		panic(fmt.Sprintf("generated suffix %q", suffix))
	}
	return prefix + suffix
}
