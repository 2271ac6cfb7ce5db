package engine

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
)

// A landscape shaped like a managed-service blueprint: "cluster" creates a
// cluster and exports it as a target and its endpoint as data; "access"
// imports that target and exports a kubeconfig; "server" deploys to the
// root's cluster with both. Only "cluster" renders at plan; with stand-in
// exports for it and "access" (what landscaper-cli's export templates
// gave), "server" renders too.
const standInRoot = `apiVersion: landscaper.gardener.cloud/v1alpha1
kind: Blueprint
imports:
- {name: cluster, targetType: landscaper.gardener.cloud/kubernetes-cluster}
- {name: region, schema: {type: string}}
subinstallations:
- apiVersion: landscaper.gardener.cloud/v1alpha1
  kind: InstallationTemplate
  name: cluster
  blueprint: {filesystem: {blueprint.yaml: %CLUSTER%}}
  imports:
    targets: [{name: provider, target: cluster}]
    data: [{name: region, dataRef: region}]
  exports:
    targets: [{name: created, target: workload}]
    data: [{name: endpoint, dataRef: workloadEndpoint}]
- apiVersion: landscaper.gardener.cloud/v1alpha1
  kind: InstallationTemplate
  name: access
  blueprint: {filesystem: {blueprint.yaml: %ACCESS%}}
  imports:
    targets: [{name: workload, target: workload}]
  exports:
    data: [{name: kubeconfig, dataRef: serverKubeconfig}]
- apiVersion: landscaper.gardener.cloud/v1alpha1
  kind: InstallationTemplate
  name: server
  blueprint: {filesystem: {blueprint.yaml: %SERVER%}}
  imports:
    targets: [{name: host, target: cluster}]
    data:
    - {name: kubeconfig, dataRef: serverKubeconfig}
    - {name: endpoint, dataRef: workloadEndpoint}
`

const standInCluster = `apiVersion: landscaper.gardener.cloud/v1alpha1
kind: Blueprint
imports:
- {name: provider, targetType: landscaper.gardener.cloud/kubernetes-cluster}
- {name: region, schema: {type: string}}
exports:
- {name: created, targetType: landscaper.gardener.cloud/kubernetes-cluster}
- {name: endpoint, schema: {type: string}}
deployExecutions:
- name: main
  type: GoTemplate
  template: |
    deployItems:
    - {name: shoot, type: landscaper.gardener.cloud/mock, target: {import: provider}, config: {region: "{{ .imports.region }}"}}
`

const standInAccess = `apiVersion: landscaper.gardener.cloud/v1alpha1
kind: Blueprint
imports:
- {name: workload, targetType: landscaper.gardener.cloud/kubernetes-cluster}
exports:
- {name: kubeconfig, schema: {type: string}}
deployExecutions:
- name: main
  type: GoTemplate
  template: |
    deployItems:
    - {name: rbac, type: landscaper.gardener.cloud/mock, target: {import: workload}, config: {}}
`

const standInServer = `apiVersion: landscaper.gardener.cloud/v1alpha1
kind: Blueprint
imports:
- {name: host, targetType: landscaper.gardener.cloud/kubernetes-cluster}
- {name: kubeconfig, schema: {type: string}}
- {name: endpoint, schema: {type: string}}
deployExecutions:
- name: main
  type: GoTemplate
  template: |
    deployItems:
    - name: server
      type: landscaper.gardener.cloud/mock
      target: {import: host}
      config: {endpoint: "{{ .imports.endpoint }}", kubeconfig: {{ .imports.kubeconfig | quote }}}
`

func standInSpec(t *testing.T) RootSpec {
	t.Helper()
	root := strings.NewReplacer("%CLUSTER%", quoteYAML(standInCluster), "%ACCESS%", quoteYAML(standInAccess),
		"%SERVER%", quoteYAML(standInServer)).Replace(standInRoot)
	spec := rootSpec(t, root)
	spec.Imports.Data = map[string]any{"region": "eu-1"}
	return spec
}

func itemIDs(tree *RenderedTree) string {
	var ids []string
	for _, it := range tree.Items {
		ids = append(ids, it.ID)
	}
	return strings.Join(ids, ",")
}

func TestRender_StandInExportsRenderTheSiblingsThatImportThem(t *testing.T) {
	spec := standInSpec(t)
	tree, err := Render(context.Background(), spec, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := itemIDs(tree); got != "root/cluster/shoot" {
		t.Fatalf("without stand-ins rendered %s", got)
	}
	if len(tree.Unknown) != 2 {
		t.Fatalf("without stand-ins pending %+v", tree.Unknown)
	}

	workload := api.NewTarget("ignored", "", api.KubernetesClusterTargetType, mustJSON(api.KubernetesClusterConfig{Kubeconfig: "apiVersion: v1\nkind: Config\n"}))
	spec.StandIns = map[string]StandIn{
		"root/cluster": {Data: map[string]any{"endpoint": "api.example"}, Targets: map[string]api.Target{"created": workload}},
		"root/access":  {Data: map[string]any{"kubeconfig": "kc"}},
	}
	tree, err = Render(context.Background(), spec, nil)
	if err != nil {
		t.Fatal(err)
	}
	// The stood-in installations render nothing; server gets their
	// exports through the templates' exports (endpoint → workloadEndpoint …).
	if got := itemIDs(tree); got != "root/server/server" {
		t.Fatalf("with stand-ins rendered %s", got)
	}
	if len(tree.Unknown) != 0 {
		t.Fatalf("with stand-ins pending %+v", tree.Unknown)
	}
	var cfg map[string]any
	if err := json.Unmarshal(tree.Items[0].Config, &cfg); err != nil {
		t.Fatal(err)
	}
	if cfg["endpoint"] != "api.example" || cfg["kubeconfig"] != "kc" {
		t.Fatalf("server config %v", cfg)
	}
	for _, p := range []string{"root/cluster", "root/access"} {
		if in, ok := tree.Installation(p); !ok || !in.StoodIn || in.Pending != "" {
			t.Errorf("%s: %+v, want stood in", p, in)
		}
	}
}

func TestRender_StandInOfOneSiblingLeavesWhatWaitsForAnotherPending(t *testing.T) {
	spec := standInSpec(t)
	// access still needs cluster's target, which only its stand-in gives:
	// access renders; server waits for access, which is rendered, not stood in.
	workload := api.NewTarget("w", "", api.KubernetesClusterTargetType, mustJSON(api.KubernetesClusterConfig{Kubeconfig: "apiVersion: v1\nkind: Config\n"}))
	spec.StandIns = map[string]StandIn{"root/cluster": {Data: map[string]any{"endpoint": "e"}, Targets: map[string]api.Target{"created": workload}}}
	tree, err := Render(context.Background(), spec, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := itemIDs(tree); got != "root/access/rbac" {
		t.Fatalf("rendered %s", got)
	}
	if len(tree.Unknown) != 1 || tree.Unknown[0].Path != "root/server" || !strings.Contains(tree.Unknown[0].Reason, `"access"`) {
		t.Fatalf("pending %+v", tree.Unknown)
	}
}

func TestRender_StandInErrors(t *testing.T) {
	spec := standInSpec(t)
	spec.StandIns = map[string]StandIn{"root/nosuch": {}}
	if _, err := Render(context.Background(), spec, nil); err == nil || !strings.Contains(err.Error(), "root/nosuch") {
		t.Fatalf("unknown path: %v", err)
	}
	// A stand-in without an export a sibling imports: that sibling's
	// missing import is the error, as for a real installation.
	spec.StandIns = map[string]StandIn{"root/cluster": {Data: map[string]any{"endpoint": "e"}}, "root/access": {Data: map[string]any{"kubeconfig": "kc"}}}
	if _, err := Render(context.Background(), spec, nil); err != nil {
		t.Fatalf("server imports no target of cluster: %v", err)
	}
	spec.StandIns = map[string]StandIn{"root/cluster": {}, "root/access": {Data: map[string]any{"kubeconfig": "kc"}}}
	if _, err := Render(context.Background(), spec, nil); err == nil || !strings.Contains(err.Error(), "workloadEndpoint") || !strings.Contains(err.Error(), "root/server") {
		t.Fatalf("missing stand-in export: %v", err)
	}
	e, m, _ := newEngine()
	if _, err := e.Apply(context.Background(), spec, nil); err == nil || !strings.Contains(err.Error(), "rendering only") || len(m.Events()) != 0 {
		t.Fatalf("apply with stand-ins: %v, %d calls", err, len(m.Events()))
	}
}
