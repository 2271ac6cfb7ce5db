package engine

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine/snapshot"
)

var updateFlows = flag.Bool("update", false, "rewrite testdata/flows/*/want.yaml")

// flowInput is input.yaml of a testdata/flows case: a blueprint tree as in
// Landscaper's guided tour, installed with the mock deployer.
type flowInput struct {
	// Blueprint is a directory of the case, or with Component set the name
	// of a blueprint resource of that component archive directory.
	Blueprint string `json:"blueprint"`
	Resource  string `json:"resource"`
	Component string `json:"component"`
	Imports   struct {
		Data        map[string]any                   `json:"data"`
		Targets     map[string]flowTarget            `json:"targets"`
		TargetLists map[string][]flowTarget          `json:"targetLists"`
		TargetMaps  map[string]map[string]flowTarget `json:"targetMaps"`
	} `json:"imports"`
	// WantError lists substrings of the error Render and Apply must fail with.
	WantError []string `json:"wantError"`
}

type flowTarget struct {
	Type   string          `json:"type"`
	Config json.RawMessage `json:"config"`
}

func (f flowTarget) target(name string) api.Target { return api.NewTarget(name, "", f.Type, f.Config) }

// flowItem is what want.yaml records of one applied deploy item.
type flowItem struct {
	ID     string              `json:"id"`
	Target *api.TargetSelector `json:"target,omitempty"`
	Config json.RawMessage     `json:"config"`
	Phase  string              `json:"phase"`
}

type flowResult struct {
	Items   []flowItem     `json:"items"`
	Exports map[string]any `json:"exports,omitempty"`
}

// TestFlows_Golden installs every testdata/flows case: Render must accept
// it, Apply must succeed, and the applied items and root exports must equal
// want.yaml (-update rewrites it).
func TestFlows_Golden(t *testing.T) {
	dirs, err := filepath.Glob(filepath.Join("testdata", "flows", "*"))
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no flows: %v", err)
	}
	for _, dir := range dirs {
		t.Run(filepath.Base(dir), func(t *testing.T) { runFlow(t, dir) })
	}
}

func runFlow(t *testing.T, dir string) {
	var in flowInput
	data, err := os.ReadFile(filepath.Join(dir, "input.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if err := yaml.UnmarshalStrict(data, &in); err != nil {
		t.Fatal(err)
	}
	src := blueprint.Source{ResourceName: in.Resource}
	if in.Blueprint != "" {
		src = blueprint.Source{Dir: filepath.Join(dir, in.Blueprint)}
	}
	comp := blueprint.ComponentSource{}
	if in.Component != "" {
		comp.Dir = filepath.Join(dir, in.Component)
	}
	bp, c, err := blueprint.Resolve(src, comp)
	if err != nil {
		t.Fatal(err)
	}
	spec := RootSpec{Name: "root", Blueprint: bp, Component: c, Imports: blueprint.Imports{
		Data: in.Imports.Data, Targets: map[string]api.Target{},
		TargetLists: map[string][]api.Target{}, TargetMaps: map[string]map[string]api.Target{},
	}}
	for name, tg := range in.Imports.Targets {
		spec.Imports.Targets[name] = tg.target(name)
	}
	for name, list := range in.Imports.TargetLists {
		for i, tg := range list {
			spec.Imports.TargetLists[name] = append(spec.Imports.TargetLists[name], tg.target(name+"-"+string(rune('a'+i))))
		}
	}
	for name, m := range in.Imports.TargetMaps {
		spec.Imports.TargetMaps[name] = map[string]api.Target{}
		for k, tg := range m {
			spec.Imports.TargetMaps[name][k] = tg.target(name + "-" + k)
		}
	}

	_, renderErr := Render(context.Background(), spec, nil)
	e, _, _ := newEngine()
	snap, applyErr := e.Apply(context.Background(), spec, nil)
	if len(in.WantError) > 0 {
		for _, err := range []error{renderErr, applyErr} {
			if err == nil {
				t.Fatalf("want an error containing %q from Render and Apply; Render: %v, Apply: %v", in.WantError, renderErr, applyErr)
			}
			for _, want := range in.WantError {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error %q does not contain %q", err, want)
				}
			}
		}
		return
	}
	if renderErr != nil {
		t.Fatalf("render: %v", renderErr)
	}
	if applyErr != nil {
		t.Fatalf("apply: %v", applyErr)
	}
	res := flowResult{Exports: snap.Exports()}
	var walk func(in *snapshot.Installation)
	walk = func(in *snapshot.Installation) {
		if in.Execution != nil {
			for _, it := range in.Execution.DeployItems {
				res.Items = append(res.Items, flowItem{ID: it.ID, Target: it.Target, Config: it.Config, Phase: string(it.Phase)})
			}
		}
		for _, sub := range in.Subinstallations {
			walk(sub)
		}
	}
	walk(snap.Root)
	sort.Slice(res.Items, func(i, k int) bool { return res.Items[i].ID < res.Items[k].ID })
	got, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	if got, err = yaml.JSONToYAML(got); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "want.yaml")
	want, err := os.ReadFile(path)
	if *updateFlows || err != nil {
		if !*updateFlows {
			t.Fatalf("golden file missing (run with -update): %v", err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if !bytes.Equal(bytes.TrimSpace(want), bytes.TrimSpace(got)) {
		t.Errorf("%s differs:\n--- want\n%s\n--- got\n%s", path, want, got)
	}
}
