package engine

import (
	"context"
	"fmt"
	"testing"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
)

// clusterMaker deploys one item exporting a kubeconfig and exports it as
// a target.
const clusterMaker = `apiVersion: landscaper.gardener.cloud/v1alpha1
kind: Blueprint
exports:
- name: made
  targetType: landscaper.gardener.cloud/kubernetes-cluster
deployExecutions:
- name: main
  type: GoTemplate
  template: |
    deployItems:
    - name: app
      type: landscaper.gardener.cloud/mock
      config:
        export: {kc: "made-kubeconfig"}
exportExecutions:
- name: exp
  type: GoTemplate
  template: |
    exports:
      made:
        type: landscaper.gardener.cloud/kubernetes-cluster
        config:
          kubeconfig: {{ .deployitems.app.kc | quote }}
`

func TestApply_TargetExportsFlowToSiblingsAndRoot(t *testing.T) {
	// a subinstallation's target export becomes a target of the parent scope, importable by siblings and exportable by the root
	e, _, _ := newEngine()
	user := componentBlueprint("")
	root := `apiVersion: landscaper.gardener.cloud/v1alpha1
kind: Blueprint
imports:
- name: cluster
  targetType: landscaper.gardener.cloud/kubernetes-cluster
- name: prefix
  schema: {type: string}
exports:
- name: url
  schema: {type: string}
- name: cl
  targetType: landscaper.gardener.cloud/kubernetes-cluster
exportExecutions:
- name: exp
  type: GoTemplate
  template: |
    exports:
      url: {{ .dataobjects.final | quote }}
      cl:
        type: landscaper.gardener.cloud/kubernetes-cluster
        config: {{ toJson .targets.madeCluster.spec.config }}
subinstallations:
- apiVersion: landscaper.gardener.cloud/v1alpha1
  kind: InstallationTemplate
  name: maker
  blueprint:
    filesystem:
      blueprint.yaml: ` + fmt.Sprintf("%q", clusterMaker) + `
  exports:
    targets: [{name: made, target: madeCluster}]
- apiVersion: landscaper.gardener.cloud/v1alpha1
  kind: InstallationTemplate
  name: user
  blueprint:
    filesystem:
      blueprint.yaml: ` + fmt.Sprintf("%q", user) + `
  imports:
    data: [{name: in, dataRef: prefix}]
    targets: [{name: cluster, target: madeCluster}]
  exports:
    data: [{name: out, dataRef: final}]
`
	snap, err := e.Apply(context.Background(), rootSpec(t, root), nil)
	if err != nil {
		t.Fatal(err)
	}
	var userInst, makerInst bool
	for _, in := range snap.Installations() {
		if in.Path == "root/user" {
			userInst = true
			got := string(in.Targets.Single["cluster"].Spec.Config)
			if got != `{"kubeconfig":"made-kubeconfig"}` || in.Targets.Single["cluster"].Metadata.Name != "madeCluster" {
				t.Errorf("user's cluster import: %s (%s)", got, in.Targets.Single["cluster"].Metadata.Name)
			}
			if in.JobIDFinished != snap.JobID() || in.Phase != api.InstallationPhaseSucceeded {
				t.Errorf("user %s", in.Phase)
			}
		}
		if in.Path == "root/maker" {
			makerInst = true
		}
	}
	if !userInst || !makerInst {
		t.Fatal("subinstallations missing")
	}
	cl, ok := snap.TargetExports()["cl"]
	if !ok || string(cl.Spec.Config) != `{"kubeconfig":"made-kubeconfig"}` || cl.Metadata.Name != "cl" {
		t.Errorf("root target export %+v", cl)
	}
}
