package shared

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine/snapshot"
)

func refTarget(name, ref string) api.Target {
	t := api.NewTarget(name, "", api.KubernetesClusterTargetType, nil)
	t.Metadata.Annotations = map[string]string{api.KubeconfigFromProviderAnnotation: ref}
	return t
}

// After an import, the root keeps only the provider-reference Targets the
// import made (and plain ones); a planted one with another installation's
// reference goes, with the list import that holds it. An applied
// snapshot keeps everything.
func TestProvenance_RestrictKeepsOnlyTheImportsOwnReferences(t *testing.T) {
	snap := func() *engine.Snapshot {
		return &engine.Snapshot{Version: snapshot.Version, Root: &snapshot.Installation{Path: "root", Targets: snapshot.TargetImports{
			Single: map[string]api.Target{
				"own":     refTarget("cluster", "ref-own"),
				"planted": refTarget("prod", "ref-prod"),
				"plain":   api.NewTarget("plain", "", api.KubernetesClusterTargetType, []byte(`{"kubeconfig":"x"}`)),
			},
			Lists: map[string][]api.Target{"list": {refTarget("cluster", "ref-own"), refTarget("prod", "ref-prod")}},
			Maps:  map[string]map[string]api.Target{"map": {"a": refTarget("cluster", "ref-own")}},
		}}}
	}
	var diags diag.Diagnostics
	imported := SnapshotProvenance(context.Background(), fakePrivate{importedKey: []byte(`[["cluster","ref-own"]]`)}, &diags)
	if diags.HasError() {
		t.Fatal(diags)
	}
	s := snap()
	imported.Restrict(s)
	got := s.Root.Targets
	if _, ok := got.Single["planted"]; ok {
		t.Error("the planted Target stayed a root import")
	}
	if _, ok := got.Lists["list"]; ok {
		t.Error("the list holding the planted Target stayed")
	}
	if _, ok := got.Single["own"]; !ok || got.Single["plain"].Metadata.Name != "plain" || len(got.Maps["map"]) != 1 {
		t.Errorf("the import's own and plain Targets went: %+v", got)
	}

	applied := SnapshotProvenance(context.Background(), fakePrivate{}, &diags)
	s = snap()
	applied.Restrict(s)
	if len(s.Root.Targets.Single) != 3 || len(s.Root.Targets.Lists) != 1 {
		t.Errorf("an applied snapshot was restricted: %+v", s.Root.Targets)
	}
}
