package landscaperfixture

import (
	"context"
	"fmt"
	"strings"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/dynamic"
)

var crdGVR = schema.GroupVersionResource{Group: "apiextensions.k8s.io", Version: "v1", Resource: "customresourcedefinitions"}

// kind is one of Landscaper's kinds as this package's CRDs declare it.
type kind struct {
	name, plural, short string
	// status: the kind has a status subresource (written by controllers).
	status bool
}

// Kinds are Landscaper's kinds the fixture uses, with the resource names
// Landscaper's API gives them.
var kinds = []kind{
	{"Installation", "installations", "inst", true},
	{"Execution", "executions", "exec", true},
	{"DeployItem", "deployitems", "di", true},
	{"Target", "targets", "tgt", false},
	{"DataObject", "dataobjects", "dobj", false},
	{"Context", "contexts", "lsctx", false},
}

// GVR returns the resource of one of Landscaper's kinds; a Secret's for "Secret".
func GVR(kindName string) schema.GroupVersionResource {
	for _, k := range kinds {
		if k.name == kindName {
			return schema.GroupVersionResource{Group: Group, Version: Version, Resource: k.plural}
		}
	}
	return schema.GroupVersionResource{Version: "v1", Resource: strings.ToLower(kindName) + "s"}
}

// crd declares one kind with a schema that keeps every field: the
// fixture stands for Landscaper's objects, not for Landscaper's
// validation.
func (k kind) crd() *unstructured.Unstructured {
	version := object{
		"name": Version, "served": true, "storage": true,
		"schema": object{"openAPIV3Schema": object{"type": "object", "x-kubernetes-preserve-unknown-fields": true}},
	}
	if k.status {
		version["subresources"] = object{"status": object{}}
	}
	return &unstructured.Unstructured{Object: jsonRoundTrip(object{
		"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
		"metadata": object{"name": k.plural + "." + Group},
		"spec": object{
			"group": Group, "scope": "Namespaced",
			"names": object{
				"kind": k.name, "listKind": k.name + "List", "plural": k.plural,
				"singular": strings.ToLower(k.name), "shortNames": []any{k.short},
			},
			"versions": []any{version},
		},
	})}
}

// EnsureCRDs creates the CRDs unless they exist and waits until the API
// server serves them.
func EnsureCRDs(ctx context.Context, client dynamic.Interface) error {
	crds := client.Resource(crdGVR)
	for _, k := range kinds {
		_, err := crds.Create(ctx, k.crd(), metav1.CreateOptions{})
		if err != nil && !apierrors.IsAlreadyExists(err) {
			return fmt.Errorf("creating the CRD of %s: %w", k.name, err)
		}
	}
	for _, k := range kinds {
		if err := waitEstablished(ctx, client, k.plural+"."+Group); err != nil {
			return err
		}
	}
	return nil
}

// waitEstablished waits until the API server serves one CRD.
func waitEstablished(ctx context.Context, client dynamic.Interface, name string) error {
	return waitFor(ctx, client.Resource(crdGVR), "CRD", name, "established", established)
}

func established(u *unstructured.Unstructured) bool {
	conds, _, _ := unstructured.NestedSlice(u.Object, "status", "conditions")
	for _, c := range conds {
		if m, ok := c.(map[string]any); ok && m["type"] == "Established" && m["status"] == "True" {
			return true
		}
	}
	return false
}

// waitFor reads one object and, unless done already holds, watches it
// from that version until done holds.
func waitFor(ctx context.Context, res dynamic.ResourceInterface, kind, name, state string, done func(*unstructured.Unstructured) bool) error {
	current, err := res.Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return fmt.Errorf("reading %s %s: %w", kind, name, err)
	}
	if done(current) {
		return nil
	}
	w, err := res.Watch(ctx, metav1.ListOptions{FieldSelector: fields.OneTermEqualSelector("metadata.name", name).String(),
		ResourceVersion: current.GetResourceVersion()})
	if err != nil {
		return fmt.Errorf("watching %s %s: %w", kind, name, err)
	}
	defer w.Stop()
	for {
		select {
		case <-ctx.Done():
			return fmt.Errorf("waiting for %s %s to be %s: %w", kind, name, state, ctx.Err())
		case ev, ok := <-w.ResultChan():
			if !ok {
				return fmt.Errorf("the watch of %s %s ended before it was %s", kind, name, state)
			}
			if u, isObj := ev.Object.(*unstructured.Unstructured); isObj && ev.Type != watch.Error && done(u) {
				return nil
			}
		}
	}
}
