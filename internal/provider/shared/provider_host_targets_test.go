package shared

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine/snapshot"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/target"
)

// execKubeconfig is a kubeconfig whose user runs a program; marker makes
// each one distinct.
func execKubeconfig(marker string) string {
	return `apiVersion: v1
kind: Config
clusters: [{name: c, cluster: {server: "https://127.0.0.1:1"}}]
users: [{name: u, user: {exec: {apiVersion: client.authentication.k8s.io/v1, command: /bin/touch, args: [/tmp/` + marker + `]}}}]
contexts: [{name: c, context: {cluster: c, user: u}}]
current-context: c
`
}

func execTarget(t *testing.T, name, namespace string, labels map[string]string) api.Target {
	t.Helper()
	cfg, err := json.Marshal(api.KubernetesClusterConfig{Kubeconfig: execKubeconfig(name)})
	if err != nil {
		t.Fatal(err)
	}
	tg := api.NewTarget(name, namespace, api.KubernetesClusterTargetType, cfg)
	tg.Metadata.Labels = labels
	return tg
}

// exportedLabels are Landscaper's labels of a Target installation "other"
// exported.
var exportedLabels = map[string]string{lsSourceTypeLabel: "export", lsSourceLabel: "Inst.other"}

// manifestForm is an installation given as a manifest whose
// manifest_objects holds the Target docs given.
func manifestForm(objects string) InstallationModel {
	return InstallationModel{Name: types.StringValue("inst"), Namespace: types.StringValue("ns"),
		Manifest:        types.StringValue("apiVersion: landscaper.gardener.cloud/v1alpha1\nkind: Installation\nmetadata: {name: inst}\n"),
		ManifestObjects: types.StringValue(objects)}
}

// Only Targets written in the configuration are the user's: a manifest's
// Target read from the host cluster is trusted only when
// trusted_host_targets names it, and one labeled as exported by an
// installation never (only allow_exec_in_blueprint_targets lets it use
// exec), wherever it was written. The refusal says where the kubeconfig
// came from and how to trust it. Before, every target import was trusted.
func TestSecurity_trustsOnlyTargetsOfTheConfiguration(t *testing.T) {
	objects := `apiVersion: landscaper.gardener.cloud/v1alpha1
kind: Target
metadata: {name: own}
spec: {type: landscaper.gardener.cloud/kubernetes-cluster, config: {}}
---
apiVersion: landscaper.gardener.cloud/v1alpha1
kind: Target
metadata: {name: copied, namespace: ns, labels: {data.landscaper.gardener.cloud/sourceType: export}}
spec: {type: landscaper.gardener.cloud/kubernetes-cluster, config: {}}
`
	own, copied := execTarget(t, "own", "", nil), execTarget(t, "copied", "ns", exportedLabels)
	host, hostExported := execTarget(t, "host", "ns", nil), execTarget(t, "host-exported", "ns", exportedLabels)
	imports := blueprint.Imports{Targets: map[string]api.Target{"own": own, "copied": copied},
		TargetLists: map[string][]api.Target{"hosts": {host}}, TargetMaps: map[string]map[string]api.Target{"m": {"x": hostExported}}}
	kubeconfig := func(tg api.Target) string {
		var cfg api.KubernetesClusterConfig
		_ = json.Unmarshal(tg.Spec.Config, &cfg)
		return cfg.Kubeconfig
	}
	for _, optIn := range []map[string]bool{nil, {"ns/host": true, "ns/host-exported": true, "ns/copied": true}} {
		pool := target.NewPool()
		sec := newSecurity(pool, SecuritySettings{TrustedHostTargets: optIn})
		sec.TrustImports(context.Background(), manifestForm(objects), imports)
		for _, c := range []struct {
			tg             api.Target
			trusted        bool
			origin, remedy string
		}{
			{own, true, "", ""},
			{copied, false, `labeled as exported by installation "other"`, "allow_exec_in_blueprint_targets"},
			{host, optIn != nil, "read from the host cluster", `add "ns/host" to trusted_host_targets`},
			{hostExported, false, `labeled as exported by installation "other"`, "allow_exec_in_blueprint_targets"},
		} {
			if got := pool.Trusted(kubeconfig(c.tg)); got != c.trusted {
				t.Errorf("opt-in %v: Target %s trusted = %v, want %v", optIn, c.tg.Metadata.Name, got, c.trusted)
			}
			if c.trusted {
				continue
			}
			_, err := pool.Clients(&c.tg)
			if err == nil || !strings.Contains(err.Error(), "users[].user.exec") || !strings.Contains(err.Error(), c.origin) || !strings.Contains(err.Error(), c.remedy) {
				t.Errorf("opt-in %v: Target %s: %v, want it refused saying %q and %q", optIn, c.tg.Metadata.Name, err, c.origin, c.remedy)
			}
		}
	}

	// The HCL form's targets are all written in the configuration, but
	// a copied exported one; a destroy or refresh (trustSnapshot) judges
	// the snapshot's targets as the configuration's.
	hcl := InstallationModel{Name: types.StringValue("inst"), Namespace: types.StringValue("ns"), Manifest: types.StringNull()}
	pool := target.NewPool()
	sec := newSecurity(pool, SecuritySettings{})
	sec.TrustSnapshot(hcl, &engine.Snapshot{Root: &snapshot.Installation{Path: "inst",
		Targets: snapshot.TargetImports{Single: map[string]api.Target{"a": host, "b": copied}}}}, Provenance{applied: true})
	if !pool.Trusted(kubeconfig(host)) || pool.Trusted(kubeconfig(copied)) {
		t.Errorf("HCL form: a written target trusted %v, an exported one %v", pool.Trusted(kubeconfig(host)), pool.Trusted(kubeconfig(copied)))
	}
	pool = target.NewPool()
	sec = newSecurity(pool, SecuritySettings{})
	sec.TrustSnapshot(manifestForm(objects), &engine.Snapshot{Root: &snapshot.Installation{Path: "inst",
		Targets: snapshot.TargetImports{Single: map[string]api.Target{"own": own, "host": host}}}}, Provenance{applied: true})
	if !pool.Trusted(kubeconfig(own)) || pool.Trusted(kubeconfig(host)) {
		t.Errorf("manifest form at destroy: own trusted %v, host %v", pool.Trusted(kubeconfig(own)), pool.Trusted(kubeconfig(host)))
	}
}

// trusted_host_targets takes "<namespace>/<name>" only.
func TestTrustedHostTargets_names(t *testing.T) {
	ctx := context.Background()
	list := func(v ...string) types.List {
		l, _ := types.ListValueFrom(ctx, types.StringType, v)
		return l
	}
	got, diags := TrustedHostTargets(ctx, list("ns/a", "other/b"))
	if diags.HasError() || !got["ns/a"] || !got["other/b"] || len(got) != 2 {
		t.Fatalf("valid names: %v, %v", got, diags)
	}
	for _, bad := range []string{"a", "/a", "ns/", "ns/a/b"} {
		if _, diags := TrustedHostTargets(ctx, list(bad)); !diags.HasError() || !strings.Contains(diags.Errors()[0].Detail(), "<namespace>/<name>") {
			t.Errorf("%q accepted: %v", bad, diags)
		}
	}
}
