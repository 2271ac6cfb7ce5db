package installation

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine/snapshot"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/hostaccess"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/instance"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/provider/shared"
)

// plantedTargets is what someone who may write Secrets in an inventory's
// namespace puts into a record an import then reads: a kubeconfig whose
// exec plugin would run on the Terraform machine, and a Target that names
// a target_kubeconfigs entry to borrow its kubeconfig.
func plantedTargets(t *testing.T) (execKubeconfig string, exec, borrow api.Target) {
	t.Helper()
	execKubeconfig = "apiVersion: v1\nkind: Config\nclusters: [{name: c, cluster: {server: 'https://127.0.0.1:1'}}]\n" +
		"contexts: [{name: c, context: {cluster: c, user: u}}]\ncurrent-context: c\n" +
		"users: [{name: u, user: {exec: {apiVersion: client.authentication.k8s.io/v1, command: /bin/sh, args: [-c, 'touch /tmp/planted']}}}]\n"
	cfg, err := json.Marshal(api.KubernetesClusterConfig{Kubeconfig: execKubeconfig})
	if err != nil {
		t.Fatal(err)
	}
	exec = api.NewTarget("cluster", "", api.KubernetesClusterTargetType, cfg)
	borrow = api.NewTarget("prod", "", api.KubernetesClusterTargetType, nil)
	borrow.Metadata.Annotations = map[string]string{api.KubeconfigFromProviderAnnotation: "planted-reference"}
	return execKubeconfig, exec, borrow
}

// The refresh after an import (issue 32 item 1) starts from state and a
// snapshot the import filled from an inventory: none of its root targets
// is the user's, whatever the kept attributes say (the HCL form makes
// every target "written"), but the targets the import made itself to
// search the clusters of target_kubeconfigs. After an apply wrote the state, the same
// snapshot's targets are the configuration's again.
func TestDrift_importedSnapshotTrustsNoTarget(t *testing.T) {
	ctx := context.Background()
	execKubeconfig, exec, borrow := plantedTargets(t)
	// the target the import searched the prod cluster with, a reference
	// of its own (ProviderData.ProviderTargets)
	own := api.NewTarget("prod", "", api.KubernetesClusterTargetType, nil)
	own.Metadata.Annotations = map[string]string{api.KubeconfigFromProviderAnnotation: "made-by-the-import"}
	snap, err := snapshot.Marshal(&snapshot.Snapshot{Root: &snapshot.Installation{Path: "app", Name: "app",
		Targets: snapshot.TargetImports{Single: map[string]api.Target{"cluster": exec, "prod": borrow, "inventory-prod": own}}}})
	if err != nil {
		t.Fatal(err)
	}
	m := shared.InstallationModel{Name: types.StringValue("app"), Namespace: types.StringValue("default"), Manifest: types.StringNull()}
	settings := shared.SecuritySettings{TargetKubeconfigs: map[string]string{"prod": "apiVersion: v1\nkind: Config\n"}}

	d := &InstallationData{shared.NewProviderData("test", hostaccess.HostSettings{}, nil, settings, shared.Tuning{})}
	priv := memPrivate{}
	if diags := (*shared.Security)(nil).MarkFilledFromCluster(ctx, priv, []api.Target{own}); diags.HasError() {
		t.Fatal(diags)
	}
	var diags diag.Diagnostics
	if _, _, err := d.drift(ctx, m, snap, shared.SnapshotProvenance(ctx, priv, &diags)); err != nil || diags.HasError() {
		t.Fatal(err, diags)
	}
	if d.Pool.Trusted(execKubeconfig) {
		t.Error("the refresh after an import trusts a planted exec kubeconfig: it would run its program")
	}
	if d.Pool.FromProvider(borrow) {
		t.Error("the refresh after an import lets a planted Target borrow a target_kubeconfigs kubeconfig")
	}
	if !d.Pool.FromProvider(own) {
		t.Error("the refresh after an import does not reach the cluster the import found the inventory in")
	}

	d = &InstallationData{shared.NewProviderData("test", hostaccess.HostSettings{}, nil, settings, shared.Tuning{})}
	if diags := (*shared.Security)(nil).MarkApplied(ctx, priv); diags.HasError() {
		t.Fatal(diags)
	}
	if _, _, err := d.drift(ctx, m, snap, shared.SnapshotProvenance(ctx, priv, &diags)); err != nil {
		t.Fatal(err)
	}
	if !d.Pool.Trusted(execKubeconfig) || !d.Pool.FromProvider(borrow) {
		t.Error("after an apply the snapshot's root targets are the configuration's and trusted")
	}
}

// An import lets a recorded target take a target_kubeconfigs kubeconfig
// only for the cluster that holds the installation's records: a record
// planted in the dev cluster cannot reach prod's kubeconfig by naming it.
func TestOwnTargets_onlyTheClusterFoundIn(t *testing.T) {
	fromProvider := func(name, ref string) api.Target {
		tg := api.NewTarget(name, "", api.KubernetesClusterTargetType, nil)
		tg.Metadata.Annotations = map[string]string{api.KubeconfigFromProviderAnnotation: ref}
		return tg
	}
	searchedDev, searchedProd := fromProvider("dev", "import-dev"), fromProvider("prod", "import-prod")
	keptDev, plantedProd := fromProvider("dev", "kept-dev"), fromProvider("prod", "planted-prod")
	imp := instance.Imported{FoundIn: []string{"dev"}, Snapshot: &snapshot.Snapshot{Root: &snapshot.Installation{Path: "app", Name: "app",
		Targets: snapshot.TargetImports{Single: map[string]api.Target{"dev": keptDev, "prod": plantedProd}}}}}
	priv := memPrivate{}
	ctx := context.Background()
	if diags := (*shared.Security)(nil).MarkFilledFromCluster(ctx, priv, ownTargets([]api.Target{searchedDev, searchedProd}, imp)); diags.HasError() {
		t.Fatal(diags)
	}
	var diags diag.Diagnostics
	p := shared.SnapshotProvenance(ctx, priv, &diags)
	if p.Applied() {
		t.Fatal("an import's state counts as applied")
	}
	for _, c := range []struct {
		tg   api.Target
		want bool
	}{{searchedDev, true}, {searchedProd, true}, {keptDev, true}, {plantedProd, false}} {
		if got := p.Own(c.tg); got != c.want {
			t.Errorf("target %s (%s): own %v, want %v", c.tg.Metadata.Name, c.tg.Metadata.Annotations[api.KubeconfigFromProviderAnnotation], got, c.want)
		}
	}
}
