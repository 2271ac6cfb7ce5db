package manifest

import (
	"context"
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/failure"
)

var _ deployer.Previewer = (*Deployer)(nil)

// Preview implements deployer.Previewer: the configured manifests as
// Apply decodes them (lists expanded, a Secret's stringData folded into
// data, annotateBeforeCreate added), without the owner label and
// annotation every object gets. The namespace is the manifest's own: the
// default one is known only to the cluster.
func (d *Deployer) Preview(_ context.Context, req deployer.PreviewRequest) (deployer.Preview, error) {
	cfg, err := ParseConfig(req.Item.Config)
	if err != nil {
		return deployer.Preview{}, err
	}
	desired, err := DecodeManifests(req.Item.ID, cfg.Manifests)
	if err != nil {
		return deployer.Preview{}, failure.NewTerminal("InvalidConfig", err)
	}
	return deployer.Preview{Objects: PreviewObjects(desired)}, nil
}

// PreviewObjects turns decoded objects into preview objects: owner
// bookkeeping removed, the policy and hooks named in the note. The Helm
// deployer's rendered charts take the same way.
func PreviewObjects(desired []*Desired) []deployer.PreviewObject {
	out := make([]deployer.PreviewObject, 0, len(desired))
	for _, d := range desired {
		o := d.Object.DeepCopy()
		unbook(o)
		out = append(out, deployer.PreviewObject{Object: o.Object, Note: previewNote(d.Spec)})
	}
	return out
}

// unbook removes what DecodeManifests adds to every object.
func unbook(o *unstructured.Unstructured) {
	if l := o.GetLabels(); l != nil {
		delete(l, deployer.OwnerLabel)
		if len(l) == 0 {
			unstructured.RemoveNestedField(o.Object, "metadata", "labels")
		} else {
			o.SetLabels(l)
		}
	}
	if a := o.GetAnnotations(); a != nil {
		delete(a, deployer.OwnerAnnotation)
		if len(a) == 0 {
			unstructured.RemoveNestedField(o.Object, "metadata", "annotations")
		} else {
			o.SetAnnotations(a)
		}
	}
}

// previewNote names what the deployer does differently from "create,
// update, delete" for m.
func previewNote(m Manifest) string {
	var notes []string
	switch m.Policy {
	case PolicyIgnore:
		notes = append(notes, "policy: ignore (never deployed)")
	case PolicyKeep:
		notes = append(notes, "policy: keep (never deleted)")
	case PolicyImmutable:
		notes = append(notes, "policy: immutable (created, never updated)")
	case PolicyFallback:
		notes = append(notes, "policy: fallback (left alone when another deploy item owns it)")
	}
	if len(m.PatchAfterDeployment) > 0 && string(m.PatchAfterDeployment) != "null" {
		notes = append(notes, "patched after deployment")
	}
	if len(m.AnnotateBeforeDelete) > 0 || (len(m.PatchBeforeDelete) > 0 && string(m.PatchBeforeDelete) != "null") {
		notes = append(notes, "changed before deletion")
	}
	return strings.Join(notes, "; ")
}
