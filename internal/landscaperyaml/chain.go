package landscaperyaml

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"sigs.k8s.io/yaml"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
)

// Root Installations applied together (`kubectl apply -f dir/`) chain
// through DataObjects and Targets: Landscaper writes a root's exports into
// the DataObjects its spec.exports.data[].dataRef name (and the Targets of
// spec.exports.targets[].target), and another root imports them by the
// same names. Here each Installation is a resource: ExportObjects are the
// objects one installation's exports write, which a later installation's
// manifest_objects takes; Stages orders the Installations of a set so
// each imports only what earlier stages export.

// objectKey names a DataObject or Target in a namespace.
type objectKey struct{ kind, namespace, name string }

// installationOf decodes doc, an Installation, and its namespace (default
// when it has none).
func installationOf(doc Document) (installation, string, error) {
	var inst installation
	if err := doc.decode(&inst); err != nil {
		return inst, "", err
	}
	ns := doc.Namespace
	if ns == "" {
		ns = "default"
	}
	return inst, ns, nil
}

// exported are the objects inst's exports write.
func exported(inst installation, ns string) []objectKey {
	var out []objectKey
	for _, e := range inst.Spec.Exports.Data {
		out = append(out, objectKey{KindDataObject, ns, objectName(e.DataRef)})
	}
	for _, e := range inst.Spec.Exports.Targets {
		out = append(out, objectKey{KindTarget, ns, objectName(e.Target)})
	}
	return out
}

// imported are the DataObjects and Targets inst imports.
func imported(inst installation, ns string) []objectKey {
	var out []objectKey
	for _, d := range inst.Spec.Imports.Data {
		if d.DataRef != "" {
			out = append(out, objectKey{KindDataObject, ns, objectName(d.DataRef)})
		}
	}
	for _, t := range inst.Spec.Imports.Targets {
		refs := append([]string(nil), t.Targets...)
		if t.Target != "" {
			refs = append(refs, t.Target)
		}
		for _, r := range t.TargetMap {
			refs = append(refs, r)
		}
		for _, r := range refs {
			out = append(out, objectKey{KindTarget, ns, objectName(r)})
		}
	}
	return out
}

// Stages orders the Installations of set by name: the first stage imports
// nothing another Installation of the set exports, each later stage only
// what earlier stages export. Names within a stage are sorted. Two
// Installations exporting the same object, one importing its own export,
// or a cycle is an error naming them.
func Stages(set *Set) ([][]string, error) {
	writer := map[objectKey]string{}
	needs := map[string]map[string]bool{}
	docs := set.Documents(KindInstallation)
	insts := make(map[string]installation, len(docs))
	for _, doc := range docs {
		inst, ns, err := installationOf(doc)
		if err != nil {
			return nil, err
		}
		insts[doc.Name] = inst
		for _, k := range exported(inst, ns) {
			if other, ok := writer[k]; ok && other != doc.Name {
				return nil, fmt.Errorf("Installations %q and %q both export %s %s/%s", other, doc.Name, k.kind, k.namespace, k.name)
			}
			writer[k] = doc.Name
		}
	}
	for _, doc := range docs {
		needs[doc.Name] = map[string]bool{}
		_, ns, _ := installationOf(doc)
		for _, k := range imported(insts[doc.Name], ns) {
			w, ok := writer[k]
			switch {
			case !ok:
			case w == doc.Name:
				return nil, fmt.Errorf("Installation %q imports %s %s/%s, which it exports itself", doc.Name, k.kind, k.namespace, k.name)
			default:
				needs[doc.Name][w] = true
			}
		}
	}
	var stages [][]string
	done := map[string]bool{}
	for len(done) < len(needs) {
		var stage []string
		for name, deps := range needs {
			if done[name] {
				continue
			}
			ready := true
			for d := range deps {
				ready = ready && done[d]
			}
			if ready {
				stage = append(stage, name)
			}
		}
		if len(stage) == 0 {
			var left []string
			for name := range needs {
				if !done[name] {
					left = append(left, name)
				}
			}
			sort.Strings(left)
			return nil, fmt.Errorf("the Installations %s import each other's exports in a cycle", strings.Join(left, ", "))
		}
		sort.Strings(stage)
		for _, name := range stage {
			done[name] = true
		}
		stages = append(stages, stage)
	}
	return stages, nil
}

// ExportObjects is the YAML stream of the DataObjects and Targets the
// exports of the one Installation in manifest write in Landscaper, in the
// installation's namespace, named as Landscaper names them, with the
// values of data (data exports by name) and targets (target exports by
// name). An export without a value (not exported yet) writes nothing.
func ExportObjects(manifest *Set, namespace string, data map[string]any, targets map[string]api.Target) (string, error) {
	insts := manifest.Documents(KindInstallation)
	if len(insts) != 1 {
		return "", fmt.Errorf("%s must hold exactly one Installation", sourceOf(manifest))
	}
	inst, _, err := installationOf(insts[0])
	if err != nil {
		return "", err
	}
	var docs []string
	add := func(obj any) error {
		b, err := yaml.Marshal(obj)
		if err == nil {
			docs = append(docs, strings.TrimSuffix(string(b), "\n"))
		}
		return err
	}
	meta := func(ref string) map[string]any {
		return map[string]any{"name": objectName(ref), "namespace": namespace}
	}
	for _, e := range inst.Spec.Exports.Data {
		v, ok := data[e.Name]
		if !ok {
			continue
		}
		if err := add(map[string]any{"apiVersion": api.TargetAPIVersion, "kind": KindDataObject, "metadata": meta(e.DataRef), "data": v}); err != nil {
			return "", fmt.Errorf("export %q: %w", e.Name, err)
		}
	}
	for _, e := range inst.Spec.Exports.Targets {
		t, ok := targets[e.Name]
		if !ok {
			continue
		}
		m := meta(e.Target)
		if len(t.Metadata.Labels) > 0 {
			m["labels"] = t.Metadata.Labels
		}
		if len(t.Metadata.Annotations) > 0 {
			m["annotations"] = t.Metadata.Annotations
		}
		spec := map[string]any{"type": t.Spec.Type}
		if len(t.Spec.Config) > 0 {
			spec["config"] = json.RawMessage(t.Spec.Config)
		}
		if err := add(map[string]any{"apiVersion": api.TargetAPIVersion, "kind": KindTarget, "metadata": m, "spec": spec}); err != nil {
			// Never the error's text: it could quote the config.
			return "", fmt.Errorf("target export %q cannot be written as a Target", e.Name)
		}
	}
	return strings.Join(docs, "\n---\n"), nil
}
