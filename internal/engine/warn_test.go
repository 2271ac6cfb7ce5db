package engine

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer/manifest"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer/mock"
)

// warningMock is the mock deployer with a deployer.Warner that warns
// about every configuration holding "warnMe".
type warningMock struct{ *mock.Deployer }

func (warningMock) ConfigWarnings(config json.RawMessage) []string {
	if strings.Contains(string(config), "warnMe") {
		return []string{"warnMe is ignored"}
	}
	return nil
}

// Engine.Render adds each deployer's warnings about a rendered item's
// configuration to the tree's warnings, naming the installation, the
// execution with its template's file and the item; items without such fields add nothing.
func TestRender_DeployerWarnings(t *testing.T) {
	reg := deployer.NewRegistry()
	reg.Register(mock.Type, warningMock{mock.New()})
	e := &Engine{Deployers: reg}
	spec := rootSpec(t, treeBlueprint("", subinstallation("db", `apiVersion: landscaper.gardener.cloud/v1alpha1
kind: Blueprint
deployExecutions:
- name: main
  type: GoTemplate
  template: |
    deployItems:
    - {name: quiet, type: landscaper.gardener.cloud/mock, config: {a: 1}}
    - {name: loud, type: landscaper.gardener.cloud/mock, config: {warnMe: true}}
`, "prefix", "unused")))
	tree, err := e.Render(context.Background(), spec, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := `installation root/db: deploy execution "main" (inline template): deploy item "loud": warnMe is ignored`
	if len(tree.Warnings) != 1 || tree.Warnings[0] != want {
		t.Fatalf("warnings %q, want [%q]", tree.Warnings, want)
	}
}

// itemLabel names the blueprint file of the item's execution when its
// template is one, so a warning or error points at the file to fix.
func TestItemLabel_NamesTheFile(t *testing.T) {
	got := itemLabel(RenderedItem{Installation: "root", Execution: "main", Source: "deploy/items.yaml", Name: "app"})
	if want := `installation root: deploy execution "main" (deploy/items.yaml): deploy item "app"`; got != want {
		t.Fatalf("itemLabel = %q, want %q", got, want)
	}
}

// targetNameBlueprint imports the targets cluster and secondary and
// renders one manifest item whose export reads from the Target named
// name (Landscaper's targetName).
func targetNameBlueprint(name string) string {
	return `apiVersion: landscaper.gardener.cloud/v1alpha1
kind: Blueprint
imports:
- {name: cluster, targetType: landscaper.gardener.cloud/kubernetes-cluster}
- {name: secondary, targetType: landscaper.gardener.cloud/kubernetes-cluster}
deployExecutions:
- name: main
  type: GoTemplate
  template: |
    deployItems:
    - name: app
      type: landscaper.gardener.cloud/kubernetes-manifest
      target: {import: cluster}
      config:
        manifests: []
        exports:
          exports:
          - {key: k, jsonPath: .data.v, fromResource: {apiVersion: v1, kind: ConfigMap, name: c, namespace: d}, targetName: ` + name + `}
`
}

// Engine.Render checks that a targetName is one of the installation's
// target imports, by the Target's metadata.name (not the import's name),
// and fails the plan naming it and the names it knows.
func TestRender_TargetNameMustBeAnImport(t *testing.T) {
	reg := deployer.NewRegistry()
	reg.Register(manifest.Type, manifest.New(nil))
	e := &Engine{Deployers: reg}
	for _, tc := range []struct{ name, want string }{
		{"workload", ""},
		{"secondary", `targetName "secondary" is none of the installation's target imports (by their Target's metadata.name; known: cluster, workload)`},
	} {
		spec := rootSpec(t, targetNameBlueprint(tc.name))
		spec.Imports.Targets["secondary"] = api.NewTarget("workload", "", api.KubernetesClusterTargetType, mustJSON(api.KubernetesClusterConfig{Kubeconfig: "other"}))
		_, err := e.Render(context.Background(), spec, nil)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("targetName %s: %v", tc.name, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), `deploy item "app"`)):
			t.Errorf("targetName %s: %v, want an error naming the item and %q", tc.name, err, tc.want)
		}
	}
}
