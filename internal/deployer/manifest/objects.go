package manifest

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	utiljson "k8s.io/apimachinery/pkg/util/json"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/fingerprint"
)

// fieldManager is the server-side-apply field manager of an item. Each
// item has its own, so that applying an object another item owns raises
// a conflict on the owner label instead of taking the object over.
func fieldManager(itemID string) string {
	if m := "landscaper/" + itemID; len(m) <= 128 {
		return m
	}
	return "landscaper/" + deployer.OwnerValue(itemID)
}

// Desired is one object the item wants, with its policy and hooks.
type Desired struct {
	Object *unstructured.Unstructured
	Spec   Manifest
	// Hash identifies the manifest as written (after labeling), so that a
	// changed manifest is re-applied even when the cluster already holds
	// every value it sets (e.g. when a field was removed from it).
	Hash string
}

// Ref returns the object's reference (namespace as defaulted).
func (d *Desired) Ref() ObjectRef { return deployer.RefOf(d.Object.Object) }

// key identifies an object independent of its API version.
type key struct {
	Group, Kind, Namespace, Name string
}

func keyOf(r ObjectRef) key {
	gv, _ := schema.ParseGroupVersion(r.APIVersion)
	return key{Group: gv.Group, Kind: r.Kind, Namespace: r.Namespace, Name: r.Name}
}

// DecodeManifests turns the configured manifests into objects: *List kinds
// are expanded into their items (which inherit the policy and hooks),
// Secret stringData is folded into data (the API server does the same, so
// comparing with the live object works), and every object is labeled
// with its owner. Namespaces are defaulted later, once the scope is known.
func DecodeManifests(itemID string, manifests []Manifest) ([]*Desired, error) {
	var out []*Desired
	for i, m := range manifests {
		var obj map[string]any
		if err := utiljson.Unmarshal(m.Manifest, &obj); err != nil { // integers as int64, exact
			return nil, fmt.Errorf("manifests[%d] is not an object: %w", i, err)
		}
		u := &unstructured.Unstructured{Object: obj}
		objs := []*unstructured.Unstructured{u}
		if u.IsList() {
			list, err := u.ToList()
			if err != nil {
				return nil, fmt.Errorf("manifests[%d] (%s): %w", i, u.GetKind(), err)
			}
			objs = nil
			for j := range list.Items {
				objs = append(objs, &list.Items[j])
			}
		}
		for _, o := range objs {
			if err := checkObject(o); err != nil {
				return nil, fmt.Errorf("manifests[%d]: %w", i, err)
			}
			if err := foldStringData(o); err != nil {
				return nil, fmt.Errorf("manifests[%d] (%s): %w", i, deployer.RefOf(o.Object), err)
			}
			if err := leaveToOthers(o.Object, m.LeftToOthers); err != nil {
				return nil, fmt.Errorf("manifests[%d].leftToOthers: %w", i, err)
			}
			labels := o.GetLabels()
			if labels == nil {
				labels = map[string]string{}
			}
			labels[deployer.OwnerLabel] = deployer.OwnerValue(itemID)
			o.SetLabels(labels)
			annotations := o.GetAnnotations()
			if annotations == nil {
				annotations = map[string]string{}
			}
			// annotateBeforeCreate stays part of every apply: with
			// server-side apply, leaving it out later would remove it.
			for k, v := range m.AnnotateBeforeCreate {
				annotations[k] = v
			}
			annotations[deployer.OwnerAnnotation] = itemID
			o.SetAnnotations(annotations)
			out = append(out, &Desired{Object: o, Spec: m})
		}
	}
	return out, nil
}

func checkObject(o *unstructured.Unstructured) error {
	switch {
	case o.GetAPIVersion() == "" || o.GetKind() == "":
		return fmt.Errorf("object %q has no apiVersion or kind", o.GetName())
	case o.GetName() == "":
		if o.GetGenerateName() != "" {
			return fmt.Errorf("%s: generateName is not supported, an object needs a fixed name to be managed", o.GetKind())
		}
		return fmt.Errorf("%s has no metadata.name", o.GetKind())
	}
	return nil
}

func foldStringData(o *unstructured.Unstructured) error {
	if o.GetAPIVersion() != "v1" || o.GetKind() != "Secret" {
		return nil
	}
	sd, found, err := unstructured.NestedStringMap(o.Object, "stringData")
	if err != nil || !found {
		return err
	}
	data, _, err := unstructured.NestedMap(o.Object, "data")
	if err != nil {
		return err
	}
	if data == nil {
		data = map[string]any{}
	}
	for k, v := range sd {
		data[k] = base64.StdEncoding.EncodeToString([]byte(v))
	}
	unstructured.RemoveNestedField(o.Object, "stringData")
	return unstructured.SetNestedMap(o.Object, data, "data")
}

// hashObject is the fingerprint of the object's JSON (map keys are sorted
// by encoding/json) without the write-only forms wo: the provider status
// keeps it. An object holding one is still rewritten when the cluster's
// differs (applyObject compares the live object too).
func hashObject(o *unstructured.Unstructured, m Manifest, wo fingerprint.Forms) string {
	return fingerprint.Value(struct {
		O any             `json:"o"`
		P json.RawMessage `json:"p,omitempty"`
		A map[string]string
	}{o.Object, m.PatchAfterDeployment, m.AnnotateBeforeCreate}, wo)
}

// isCRD reports whether o is a CustomResourceDefinition.
func isCRD(o *unstructured.Unstructured) bool {
	return o.GetKind() == "CustomResourceDefinition" && strings.HasPrefix(o.GetAPIVersion(), "apiextensions.k8s.io/")
}
