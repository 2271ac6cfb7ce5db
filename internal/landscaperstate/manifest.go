package landscaperstate

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/yaml"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
)

// droppedAnnotations steer Landscaper's controllers or record a client's
// last apply; they are not part of what a user keeps in git.
var droppedAnnotations = map[string]bool{
	"landscaper.gardener.cloud/operation":              true,
	"landscaper.gardener.cloud/reconcile-reason":       true,
	"landscaper.gardener.cloud/touch":                  true,
	"landscaper.gardener.cloud/reconcile-time":         true,
	"kubectl.kubernetes.io/last-applied-configuration": true,
	annDataObjectHash:                                  true,
}

// userMeta is metadata as a user writes it: name, namespace and the
// labels and annotations that are not Landscaper's bookkeeping.
func userMeta(name, namespace string, labels, annotations map[string]string) map[string]any {
	md := map[string]any{"name": name, "namespace": namespace}
	if l := filtered(labels, func(k string) bool { return strings.HasPrefix(k, dataLabelPrefix) || k == labelEncompassedBy }); len(l) > 0 {
		md["labels"] = l
	}
	if a := filtered(annotations, func(k string) bool { return droppedAnnotations[k] || k == annSubinstallationName }); len(a) > 0 {
		md["annotations"] = a
	}
	return md
}

func filtered(m map[string]string, drop func(string) bool) map[string]string {
	out := map[string]string{}
	for k, v := range m {
		if !drop(k) {
			out[k] = v
		}
	}
	return out
}

// installationManifest is the root Installation as YAML, without status
// and without the `context: default` Landscaper's defaulting writes into
// every Installation that names no Context (what Landscaper does without
// one, as this provider does), so the generated configuration is the
// Installation the user applied.
func installationManifest(w *wireInstallation) (string, error) {
	ref := w.Metadata.ref("Installation").String()
	var spec map[string]any
	if err := api.DecodeExact(w.Spec, &spec); err != nil { // numbers as written
		return "", fmt.Errorf("%s: spec: %s", ref, jsonErrorWithoutValues(err))
	}
	if spec["context"] == defaultContext {
		delete(spec, "context")
	}
	doc := map[string]any{
		"apiVersion": APIVersion, "kind": "Installation",
		"metadata": userMeta(w.Metadata.Name, w.Metadata.Namespace, w.Metadata.Labels, w.Metadata.Annotations),
		"spec":     spec,
	}
	return toYAML(doc, ref)
}

// defaultContext is the Context Landscaper uses when an Installation
// names none; its central controller creates it in every namespace.
const defaultContext = "default"

func toYAML(doc map[string]any, what string) (string, error) {
	raw, err := json.Marshal(doc)
	if err != nil {
		return "", fmt.Errorf("%s: %w", what, err)
	}
	out, err := yaml.JSONToYAML(raw)
	if err != nil {
		return "", fmt.Errorf("%s: cannot be written as YAML", what)
	}
	return string(out), nil
}

// rootObjects finds the DataObjects, Targets and Context the root
// Installation reads and returns a function that writes them as a YAML
// stream once Targets' Secrets are read.
func (r *reader) rootObjects(root *wireInstallation) (func() (string, error), error) {
	ref := root.Metadata.ref("Installation")
	var spec wireInstallationSpec
	if err := json.Unmarshal(root.Spec, &spec); err != nil {
		return nil, fmt.Errorf("%s: spec: %s", ref, jsonErrorWithoutValues(err))
	}
	var docs []func() map[string]any
	seen := map[string]bool{}
	add := func(kind, name string, doc func() map[string]any) {
		if !seen[kind+"/"+name] {
			seen[kind+"/"+name] = true
			docs = append(docs, doc)
		}
	}
	for i, im := range spec.Imports.Data {
		if im.DataRef == "" {
			continue // secretRef and configMapRef imports are read from the cluster by the provider
		}
		u := r.h.dataObjects[DataObjectName("", im.DataRef)]
		if u == nil {
			return nil, fmt.Errorf("%s: spec.imports.data[%d].dataRef: DataObject %q not found", ref, i, im.DataRef)
		}
		add("DataObject", u.GetName(), func() map[string]any { return dataObjectDoc(u) })
	}
	for i, im := range spec.Imports.Targets {
		names := append([]string{}, im.Targets...)
		if im.Target != "" {
			names = append(names, im.Target)
		}
		names = append(names, sortedValues(im.TargetMap)...)
		for _, n := range names {
			u := r.h.targets[DataObjectName("", n)]
			if u == nil {
				return nil, fmt.Errorf("%s: spec.imports.targets[%d]: Target %q not found", ref, i, n)
			}
			t, err := r.target(u)
			if err != nil {
				return nil, err
			}
			add("Target", u.GetName(), func() map[string]any { return targetDoc(t) })
		}
	}
	if spec.Context != "" {
		if u := r.h.contexts[spec.Context]; u != nil {
			add("Context", u.GetName(), func() map[string]any { return contextDoc(u) })
		}
	}
	return func() (string, error) { return yamlStream(docs, ref.String()+" imports") }, nil
}

// yamlStream writes the documents docs build as one YAML stream; they are
// built only now, once the Secrets they need are read.
func yamlStream(docs []func() map[string]any, what string) (string, error) {
	parts := make([]string, 0, len(docs))
	for _, doc := range docs {
		text, err := toYAML(doc(), what)
		if err != nil {
			return "", err
		}
		parts = append(parts, text)
	}
	return strings.Join(parts, "---\n"), nil
}

func dataObjectDoc(u *unstructured.Unstructured) map[string]any {
	return map[string]any{"apiVersion": APIVersion, "kind": "DataObject",
		"metadata": userMeta(u.GetName(), u.GetNamespace(), u.GetLabels(), u.GetAnnotations()), "data": dataOf(u)}
}

// targetDoc is a Target as a user keeps it, with the labels that say an
// installation exported it (labelDOSourceType "export", labelDOSource
// "Inst.<name>"): a blueprint wrote its config, so the provider trusts
// its kubeconfig no more than a blueprint's (docs/guides/security.md).
func targetDoc(t *api.Target) map[string]any {
	spec := map[string]any{"type": t.Spec.Type}
	if len(t.Spec.Config) > 0 {
		spec["config"] = t.Spec.Config
	}
	meta := userMeta(t.Metadata.Name, t.Metadata.Namespace, t.Metadata.Labels, t.Metadata.Annotations)
	for _, k := range []string{labelDOSourceType, labelDOSource} {
		if v, ok := t.Metadata.Labels[k]; ok {
			labels, _ := meta["labels"].(map[string]string)
			if labels == nil {
				labels = map[string]string{}
				meta["labels"] = labels
			}
			labels[k] = v
		}
	}
	return map[string]any{"apiVersion": APIVersion, "kind": "Target", "metadata": meta, "spec": spec}
}

// contextDoc is a Context with every field but the server's metadata.
func contextDoc(u *unstructured.Unstructured) map[string]any {
	doc := map[string]any{}
	for k, v := range u.Object {
		doc[k] = v
	}
	doc["metadata"] = userMeta(u.GetName(), u.GetNamespace(), u.GetLabels(), u.GetAnnotations())
	return doc
}

func sortedValues(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := make([]string, 0, len(m))
	for _, k := range keys {
		out = append(out, m[k])
	}
	return out
}
