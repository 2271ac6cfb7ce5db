package shared

import (
	"encoding/json"
	"testing"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint/template"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/fingerprint"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/hostaccess"
)

// Every input a rendering reads changes the render key; a write-only
// value does not (it is masked, as in every stored hash).
func TestRenderKey_CoversEachInput(t *testing.T) {
	key := ConfigHashKey(make([]byte, configHashKeyBytes))
	snapshot := []byte(`{"version":1}`)
	base := func() (*ProviderData, engine.RootSpec, string) {
		d := NewProviderData("1.0.0", hostaccess.HostSettings{}, nil, SecuritySettings{Limits: template.DefaultLimits()}, Tuning{})
		spec := engine.RootSpec{Name: "app", Blueprint: &blueprint.Blueprint{},
			Imports:            blueprint.Imports{Data: map[string]any{"replicas": 2, "password": "wo-secret"}},
			ImportDataMappings: map[string]json.RawMessage{"a": json.RawMessage(`"(( replicas ))"`)},
			Context:            map[string]any{"repositoryContext": "r"},
			WriteOnly:          fingerprint.Forms{"wo-secret"},
		}
		return d, spec, "digest"
	}
	d, spec, digest := base()
	want := d.RenderInputsOf(spec, digest).Key(key, snapshot)
	if want == "" {
		t.Fatal("no key for complete inputs")
	}
	if again := d.RenderInputsOf(spec, digest).Key(key, snapshot); again != want {
		t.Fatal("the key of the same inputs differs")
	}
	for name, change := range map[string]func(d **ProviderData, s *engine.RootSpec, digest *string, snap *[]byte){
		"an import": func(_ **ProviderData, s *engine.RootSpec, _ *string, _ *[]byte) { s.Imports.Data["replicas"] = 3 },
		"a data mapping": func(_ **ProviderData, s *engine.RootSpec, _ *string, _ *[]byte) {
			s.ImportDataMappings["b"] = json.RawMessage(`1`)
		},
		"the Context":       func(_ **ProviderData, s *engine.RootSpec, _ *string, _ *[]byte) { s.Context["x"] = 1 },
		"the name":          func(_ **ProviderData, s *engine.RootSpec, _ *string, _ *[]byte) { s.Name = "other" },
		"the blueprint":     func(_ **ProviderData, _ *engine.RootSpec, g *string, _ *[]byte) { *g = "other" },
		"the snapshot":      func(_ **ProviderData, _ *engine.RootSpec, _ *string, b *[]byte) { *b = []byte(`{"version":2}`) },
		"the render limits": func(d **ProviderData, _ *engine.RootSpec, _ *string, _ *[]byte) { (*d).Security.limits.MaxSteps++ },
		"the version":       func(d **ProviderData, _ *engine.RootSpec, _ *string, _ *[]byte) { (*d).version = "1.0.1" },
		"who serves a type": func(d **ProviderData, _ *engine.RootSpec, _ *string, _ *[]byte) {
			(*d).Engine.Deployers.Replace("x/y", nil)
		},
		"the blueprint's ref": func(_ **ProviderData, s *engine.RootSpec, _ *string, _ *[]byte) {
			s.Blueprint.Definition = map[string]any{"ref": "x"}
		},
	} {
		d, spec, digest := base()
		snap := snapshot
		change(&d, &spec, &digest, &snap)
		if got := d.RenderInputsOf(spec, digest).Key(key, snap); got == want {
			t.Errorf("changing %s leaves the render key as it was", name)
		}
	}
	d, spec, digest = base()
	spec.Imports.Data["password"] = "other-wo"
	spec.WriteOnly = fingerprint.Forms{"other-wo"}
	if got := d.RenderInputsOf(spec, digest).Key(key, snapshot); got != want {
		t.Error("the render key depends on a write-only value")
	}
	if got := d.RenderInputsOf(spec, digest).Key(nil, snapshot); got != "" {
		t.Error("a key without the installation's config_hash key")
	}
}
