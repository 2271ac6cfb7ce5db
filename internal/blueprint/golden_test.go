package blueprint

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint/component"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// engines are the blueprint directories a golden case may hold; every
// engine present must produce the same want.yaml.
var engines = []string{"gotemplate", "spiff"}

// goldenCase is input.yaml of a case directory.
type goldenCase struct {
	Imports struct {
		Data        map[string]any                     `json:"data"`
		Targets     map[string]goldenTarget            `json:"targets"`
		TargetLists map[string][]goldenTarget          `json:"targetLists"`
		TargetMaps  map[string]map[string]goldenTarget `json:"targetMaps"`
	} `json:"imports"`
	State map[string]json.RawMessage `json:"state"`
	// Component is a descriptor file of the case dir; ComponentArchive a
	// component archive directory of the case dir.
	Component        string `json:"component"`
	ComponentArchive string `json:"componentArchive"`
	// Exports, when set, also runs RenderExports with these inputs.
	Exports *struct {
		DeployItems map[string]map[string]any  `json:"deployItems"`
		DataObjects map[string]any             `json:"dataObjects"`
		Targets     map[string]goldenTarget    `json:"targets"`
		State       map[string]json.RawMessage `json:"state"`
	} `json:"exports"`
	// WantError lists substrings the error of every engine must contain;
	// such cases have no golden file.
	WantError []string `json:"wantError"`
	// WantNotInError lists strings that must not leak into the error.
	WantNotInError []string `json:"wantNotInError"`
}

type goldenTarget struct {
	Type   string          `json:"type"`
	Config json.RawMessage `json:"config"`
}

func (g goldenTarget) target(name string) api.Target {
	return api.NewTarget(name, "", g.Type, g.Config)
}

// goldenResult is what want.yaml records.
type goldenResult struct {
	Warnings []string  `json:"warnings,omitempty"`
	Rendered *Rendered `json:"rendered"`
	Exported *Exported `json:"exported,omitempty"`
}

// runGoldenSuite runs every case directory of testdata/<suite>.
func runGoldenSuite(t *testing.T, suite string) {
	t.Helper()
	dirs, err := filepath.Glob(filepath.Join("testdata", suite, "*"))
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no cases in testdata/%s: %v", suite, err)
	}
	for _, dir := range dirs {
		t.Run(filepath.Base(dir), func(t *testing.T) { runGoldenCase(t, dir) })
	}
}

func runGoldenCase(t *testing.T, dir string) {
	var c goldenCase
	readYAML(t, filepath.Join(dir, "input.yaml"), &c)
	ran := 0
	for _, engine := range engines {
		bpDir := filepath.Join(dir, engine)
		if _, err := os.Stat(bpDir); err != nil {
			continue
		}
		ran++
		t.Run(engine, func(t *testing.T) {
			got, err := renderCase(t, dir, bpDir, c)
			if len(c.WantError) > 0 {
				if err == nil {
					t.Fatalf("want an error containing %q, got none", c.WantError)
				}
				t.Logf("error: %v", err)
				for _, want := range c.WantError {
					if !strings.Contains(err.Error(), want) {
						t.Errorf("error %q does not contain %q", err, want)
					}
				}
				for _, leak := range c.WantNotInError {
					if strings.Contains(err.Error(), leak) {
						t.Errorf("error %q leaks %q", err, leak)
					}
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			compareGolden(t, filepath.Join(dir, "want.yaml"), got)
		})
	}
	if ran == 0 {
		t.Fatalf("%s has neither gotemplate/ nor spiff/", dir)
	}
}

func renderCase(t *testing.T, caseDir, bpDir string, c goldenCase) ([]byte, error) {
	t.Helper()
	var comp *Component
	var err error
	switch {
	case c.Component != "":
		data, rerr := os.ReadFile(filepath.Join(caseDir, c.Component))
		if rerr != nil {
			t.Fatal(rerr)
		}
		comp, err = component.FromInline(data)
	case c.ComponentArchive != "":
		comp, err = component.FromArchiveDir(filepath.Join(caseDir, c.ComponentArchive))
	}
	if err != nil {
		t.Fatalf("component: %v", err)
	}
	if comp != nil {
		comp.Definition = map[string]any{"ref": map[string]any{
			"componentName": comp.Descriptor.Component.Name, "version": comp.Descriptor.Component.Version}}
	}
	b, err := Load(os.DirFS(bpDir))
	if err != nil {
		return nil, err
	}
	b.Definition = map[string]any{"ref": map[string]any{"resourceName": "golden"}}
	in := RenderInput{Component: comp, State: c.State, Imports: Imports{
		Data:        c.Imports.Data,
		Targets:     map[string]api.Target{},
		TargetLists: map[string][]api.Target{},
		TargetMaps:  map[string]map[string]api.Target{},
	}}
	for name, tg := range c.Imports.Targets {
		in.Imports.Targets[name] = tg.target(name)
	}
	for name, list := range c.Imports.TargetLists {
		for i, tg := range list {
			in.Imports.TargetLists[name] = append(in.Imports.TargetLists[name], tg.target(name+"-"+string(rune('a'+i))))
		}
	}
	for name, m := range c.Imports.TargetMaps {
		in.Imports.TargetMaps[name] = map[string]api.Target{}
		for k, tg := range m {
			in.Imports.TargetMaps[name][k] = tg.target(name + "-" + k)
		}
	}
	r, err := b.Render(context.Background(), in)
	if err != nil {
		return nil, err
	}
	res := goldenResult{Warnings: b.Warnings, Rendered: r}
	if c.Exports != nil {
		ex := ExportInput{Imports: r.Imports, DeployItems: c.Exports.DeployItems, DataObjects: c.Exports.DataObjects,
			Targets: map[string]api.Target{}, Component: comp, State: c.Exports.State}
		for name, tg := range c.Exports.Targets {
			ex.Targets[name] = tg.target(name)
		}
		if res.Exported, err = b.RenderExports(context.Background(), ex); err != nil {
			return nil, err
		}
	}
	data, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	out, err := yaml.JSONToYAML(data)
	if err != nil {
		t.Fatal(err)
	}
	return out, nil
}

// compareGolden compares got with the golden file; -update rewrites it
// (the first engine writes, later engines are compared with that).
func compareGolden(t *testing.T, path string, got []byte) {
	t.Helper()
	want, err := os.ReadFile(path)
	if *update && (err != nil || !strings.HasSuffix(t.Name(), "/spiff")) {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if err != nil {
		t.Fatalf("golden file missing (run with -update): %v", err)
	}
	if !bytes.Equal(bytes.TrimSpace(want), bytes.TrimSpace(got)) {
		t.Errorf("%s differs:\n--- want\n%s\n--- got\n%s", path, want, got)
	}
}

func readYAML(t *testing.T, path string, v any) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := yaml.UnmarshalStrict(data, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

// TestRender_Golden renders every case of testdata/render through every
// engine directory it has; GoTemplate and Spiff must agree.
func TestRender_Golden(t *testing.T) { runGoldenSuite(t, "render") }

// TestRender_Errors proves each invalid case fails with a message naming
// the execution, file, import, schema path or value, secrets masked.
func TestRender_Errors(t *testing.T) { runGoldenSuite(t, "render-errors") }

// TestRender_Imports covers required/optional/default, conditional imports,
// schema references and target types.
func TestRender_Imports(t *testing.T) { runGoldenSuite(t, "imports") }

// TestRenderExports_Golden covers export executions and export validation.
func TestRenderExports_Golden(t *testing.T) { runGoldenSuite(t, "exports") }

// TestRender_Subinstallations covers inline, file and executed subinstallations.
func TestRender_Subinstallations(t *testing.T) { runGoldenSuite(t, "subinstallations") }

// TestRender_Components covers the component functions and cd inputs.
func TestRender_Components(t *testing.T) { runGoldenSuite(t, "components") }
