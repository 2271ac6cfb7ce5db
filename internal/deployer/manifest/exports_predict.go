package manifest

import (
	"encoding/json"
	"strings"

	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
)

// Exports known at plan (deployer.ExportPredictor). An export is known
// only when Apply's read of it cannot come out differently: it reads a
// scalar that the rendered object itself sets, on an object this item
// applies as rendered. Everything the cluster decides or may rewrite stays
// unknown:
//   - metadata the server keeps (uid, resourceVersion, timestamps,
//     generation, managedFields, a generated name) and status;
//   - maps and lists (the server adds defaults and other managers' entries);
//   - a quantity not in the server's canonical form ("0.5" is stored as
//     "500m"), a value a deployer generates at apply (deployer.Generated);
//   - objects applied with a policy that may leave the cluster's version
//     (ignore, immutable, fallback), patched after deployment, Helm hooks
//     and crds/;
//   - exports following an object reference or read on another target,
//     and every export of a Secret (the plan masks its values).
//
// With plan_diff = "server" the value is the dry-run's (defaults,
// webhooks and normalisation applied), still only where the rendered
// object sets the field.

// PredictExports implements deployer.ExportPredictor.
func (d *Deployer) PredictExports(config json.RawMessage, rendered, server []deployer.PreviewObject) (deployer.PredictedExports, error) {
	cfg, err := ParseConfig(config)
	if err != nil {
		return deployer.PredictedExports{}, err
	}
	var exports []Export
	if cfg.Exports != nil {
		exports = cfg.Exports.Exports
	}
	return PredictFromObjects(exports, "", rendered, server), nil
}

// PredictFromObjects predicts exports from the objects of an item.
// defaultNamespace is the namespace objects without one are applied to
// when the deployer knows it at plan (a Helm release's), else "".
func PredictFromObjects(exports []Export, defaultNamespace string, rendered, server []deployer.PreviewObject) deployer.PredictedExports {
	out := deployer.PredictedExports{Known: map[string]any{}}
	for _, e := range exports {
		if v, ok := predictOne(e, defaultNamespace, rendered, server); ok {
			out.Known[e.Key] = v
		} else {
			out.Unknown = append(out.Unknown, e.Key)
		}
	}
	return out
}

func predictOne(e Export, defaultNamespace string, rendered, server []deployer.PreviewObject) (any, bool) {
	if e.FromResource == nil || e.FromObjectRef != nil || e.TargetName != nil || clusterDecided(e.JSONPath) {
		return nil, false
	}
	if e.FromResource.Kind == "Secret" {
		return nil, false // the plan masks a Secret's values: its exports show after apply, as before
	}
	local, ok := findObject(*e.FromResource, defaultNamespace, rendered)
	if !ok || !plainlyApplied(local.Note) {
		return nil, false
	}
	v, ok := scalarAt(local.Object, e.JSONPath)
	if !ok {
		return nil, false
	}
	if server != nil {
		live, ok := findObject(*e.FromResource, defaultNamespace, server)
		if !ok {
			return nil, false
		}
		if v, ok = scalarAt(live.Object, e.JSONPath); !ok {
			return nil, false
		}
	}
	if s, isString := v.(string); isString && !storedAsRendered(s) {
		return nil, false
	}
	return v, true
}

// clusterDecided reports whether path reads what the API server writes
// whatever the object says.
func clusterDecided(path string) bool {
	p := strings.TrimPrefix(strings.Trim(strings.TrimSpace(path), "{}"), ".")
	for _, prefix := range []string{"status", "metadata.uid", "metadata.resourceVersion", "metadata.creationTimestamp",
		"metadata.deletionTimestamp", "metadata.generation", "metadata.managedFields", "metadata.selfLink",
		"metadata.generateName", "metadata.ownerReferences", "metadata.finalizers"} {
		if p == prefix || strings.HasPrefix(p, prefix+".") || strings.HasPrefix(p, prefix+"[") {
			return true
		}
	}
	return false
}

// plainlyApplied reports whether an object with this preview note is
// applied as rendered (previewNote, and the Helm deployer's notes).
func plainlyApplied(note string) bool {
	for _, not := range []string{"policy: ignore", "policy: immutable", "policy: fallback", "patched after deployment", "helm "} {
		if strings.Contains(note, not) {
			return false
		}
	}
	return true
}

// clusterScoped are the built-in kinds an export may name without a
// namespace and be sure of the object.
var clusterScoped = map[string]bool{
	"Namespace": true, "ClusterRole": true, "ClusterRoleBinding": true, "CustomResourceDefinition": true,
	"StorageClass": true, "PriorityClass": true, "PersistentVolume": true, "IngressClass": true,
	"ValidatingWebhookConfiguration": true, "MutatingWebhookConfiguration": true, "APIService": true,
}

// findObject finds the object ref names among objs. An object without a
// namespace matches a ref with one only in defaultNamespace; a ref
// without one matches only cluster-scoped kinds (the namespace a
// namespaced object would get is the kubeconfig's, unknown at plan).
func findObject(ref ObjectRef, defaultNamespace string, objs []deployer.PreviewObject) (deployer.PreviewObject, bool) {
	for _, o := range objs {
		apiVersion, _ := o.Object["apiVersion"].(string)
		kind, _ := o.Object["kind"].(string)
		meta, _ := o.Object["metadata"].(map[string]any)
		name, _ := meta["name"].(string)
		ns, _ := meta["namespace"].(string)
		if apiVersion != ref.APIVersion || kind != ref.Kind || name != ref.Name {
			continue
		}
		switch {
		case ref.Namespace == "" && ns == "":
			if clusterScoped[kind] {
				return o, true
			}
		case ns == ref.Namespace:
			return o, true
		case ns == "" && defaultNamespace != "" && ref.Namespace == defaultNamespace && !clusterScoped[kind]:
			return o, true
		}
	}
	return deployer.PreviewObject{}, false
}

// scalarAt is the one string, number or boolean at path in obj.
func scalarAt(obj map[string]any, path string) (any, bool) {
	v, found, err := LookupJSONPath(obj, path)
	if err != nil || !found {
		return nil, false
	}
	switch x := v.(type) {
	case string:
		return x, !strings.Contains(x, deployer.Generated)
	case bool, int64, float64, int32, int, json.Number:
		return x, true
	}
	return nil, false
}

// storedAsRendered reports whether the API server keeps s as it is where
// the schema makes it a quantity: a string that parses as one only when
// it is already in canonical form. A string that is no quantity is kept.
func storedAsRendered(s string) bool {
	q, err := resource.ParseQuantity(s)
	if err != nil {
		return true
	}
	return q.String() == s
}

var _ deployer.ExportPredictor = (*Deployer)(nil)
