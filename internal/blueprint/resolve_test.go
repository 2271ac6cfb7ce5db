package blueprint

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint/component"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/failure"
)

const resolveArchive = "testdata/resolve/archive"

// renderSay renders a resolved blueprint and returns its deploy items.
func renderSay(t *testing.T, b *Blueprint, c *Component) []api.DeployItemTemplate {
	t.Helper()
	r, err := b.Render(context.Background(), RenderInput{Component: c, Imports: Imports{Data: map[string]any{"greeting": "hi"}}})
	if err != nil {
		t.Fatal(err)
	}
	return r.DeployItems
}

// TestResolve_Sources proves a blueprint loads from a directory, an inline
// filesystem and a component's blueprint resource, each exposing how it was
// referenced as the `blueprint` input.
func TestResolve_Sources(t *testing.T) {
	dir := "testdata/resolve/dir-blueprint"
	inline := map[string]string{}
	for _, f := range []string{"blueprint.yaml", "deploy.yaml"} {
		data, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			t.Fatal(err)
		}
		inline[f] = string(data)
	}
	cases := map[string]struct {
		src     Source
		comp    ComponentSource
		wantDef string
	}{
		"directory":          {src: Source{Dir: dir}, wantDef: `{"dir":"testdata/resolve/dir-blueprint"}`},
		"inline filesystem":  {src: Source{Inline: inline}, wantDef: `"filesystem":{"blueprint.yaml"`},
		"component resource": {src: Source{ResourceName: "blueprint"}, comp: ComponentSource{Dir: resolveArchive}, wantDef: `{"ref":{"resourceName":"blueprint"}}`},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			b, c, err := Resolve(tc.src, tc.comp)
			if err != nil {
				t.Fatal(err)
			}
			items := renderSay(t, b, c)
			if len(items) != 1 || !strings.Contains(string(items[0].Config), `"greeting":"hi"`) ||
				!strings.Contains(string(items[0].Config), tc.wantDef) {
				t.Fatalf("unexpected items %+v", items)
			}
		})
	}
}

// TestResolve_Errors proves invalid sources fail terminally with the object named.
func TestResolve_Errors(t *testing.T) {
	cases := map[string]struct {
		src  Source
		comp ComponentSource
		want string
	}{
		"no source":           {src: Source{}, want: "exactly one of"},
		"two sources":         {src: Source{Dir: "x", ResourceName: "y"}, want: "exactly one of"},
		"missing directory":   {src: Source{Dir: "testdata/nope"}, want: `"testdata/nope"`},
		"resource without cd": {src: Source{ResourceName: "blueprint"}, want: "no component descriptor"},
		"not a blueprint":     {src: Source{ResourceName: "not-a-blueprint"}, comp: ComponentSource{Dir: resolveArchive}, want: `type "ociImage"`},
		"unknown resource":    {src: Source{ResourceName: "nope"}, comp: ComponentSource{Dir: resolveArchive}, want: "has no resource matching map[name:nope]"},
		"bad inline cd":       {src: Source{ResourceName: "x"}, comp: ComponentSource{Inline: "meta: {schemaVersion: v3}"}, want: "schema version"},
		"both cd sources":     {src: Source{ResourceName: "x"}, comp: ComponentSource{Inline: "x", Dir: "y"}, want: "not both"},
		"inline path escapes": {src: Source{Inline: map[string]string{"../blueprint.yaml": ""}}, want: "not a relative path"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			_, _, err := Resolve(tc.src, tc.comp)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("want error containing %q, got %v", tc.want, err)
			}
			if !failure.IsTerminal(err) {
				t.Errorf("error is not terminal: %v", err)
			}
		})
	}
}

// TestSubinstallation_References proves subinstallation blueprints load by
// cd:// reference (a tar.gz local blob of a referenced component) and
// inline, and that a reference without a component descriptor fails.
func TestSubinstallation_References(t *testing.T) {
	parent, c, err := Resolve(Source{ResourceName: "blueprint"}, ComponentSource{Dir: resolveArchive})
	if err != nil {
		t.Fatal(err)
	}
	sub, err := parent.Subinstallation(api.SubinstallationTemplate{
		Name: "leaf", Blueprint: api.SubinstallationBlueprint{Ref: "cd://componentReferences/leaf/resources/blueprint"},
	}, c)
	if err != nil {
		t.Fatal(err)
	}
	r, err := sub.Render(context.Background(), RenderInput{Component: c})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.DeployItems) != 1 || r.DeployItems[0].Name != "leaf-item" {
		t.Fatalf("unexpected items %+v", r.DeployItems)
	}

	own, err := parent.Subinstallation(api.SubinstallationTemplate{
		Name: "own", Blueprint: api.SubinstallationBlueprint{Ref: "cd://resources/blueprint"},
	}, c)
	if err != nil || len(own.DeployExecutions) != 1 {
		t.Fatalf("own blueprint by cd://resources: %v", err)
	}

	inline, err := parent.Subinstallation(api.SubinstallationTemplate{
		Name: "inline", Blueprint: api.SubinstallationBlueprint{Filesystem: map[string]string{
			"blueprint.yaml": "apiVersion: landscaper.gardener.cloud/v1alpha1\nkind: Blueprint\n"}},
	}, nil)
	if err != nil || inline.Definition["inline"] == nil {
		t.Fatalf("inline subinstallation: %v %v", err, inline)
	}

	_, err = parent.Subinstallation(api.SubinstallationTemplate{
		Name: "orphan", Blueprint: api.SubinstallationBlueprint{Ref: "cd://resources/blueprint"},
	}, nil)
	if !errors.Is(err, component.ErrNoComponent) || !strings.Contains(err.Error(), `subinstallation "orphan"`) {
		t.Fatalf("want ErrNoComponent naming the subinstallation, got %v", err)
	}
}
