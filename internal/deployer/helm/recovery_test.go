package helm_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"helm.sh/helm/v3/pkg/action"
	"helm.sh/helm/v3/pkg/chart"
	"helm.sh/helm/v3/pkg/release"
	"k8s.io/cli-runtime/pkg/genericclioptions"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer/deployertest"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer/helm"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/target"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/testsupport/localcluster"
)

// helmStorage is Helm's release storage of namespace, as the helm CLI sees it.
func helmStorage(t testing.TB, namespace string) *action.Configuration {
	t.Helper()
	flags := genericclioptions.NewConfigFlags(false)
	path := localcluster.KubeconfigPath(t)
	flags.KubeConfig, flags.Namespace = &path, &namespace
	cfg := new(action.Configuration)
	if err := cfg.Init(flags, namespace, "secret", func(string, ...any) {}); err != nil {
		t.Fatal(err)
	}
	return cfg
}

func helmItem(t testing.TB, id string, config []byte) deployer.Item {
	return deployer.Item{ID: id, Name: id, Type: helm.Type, Target: deployertest.KubernetesTarget(t, localcluster.Kubeconfig(t)), Config: config, Timeouts: deployer.Timeouts{Progressing: time.Minute}}
}

func valuesChart(t *testing.T, ns string) *chart.Chart {
	return testChart(t, nil, map[string]string{"cm.yaml": `apiVersion: v1
kind: ConfigMap
metadata: {name: {{ .Release.Name }}, namespace: ` + ns + `}
data: {v: {{ .Values.v | quote }}}
`})
}

// TestApply_RecoversPendingRelease: a release left pending-install or
// pending-upgrade by an interrupted run is recovered by the next Apply.
func TestApply_RecoversPendingRelease(t *testing.T) {
	for _, status := range []release.Status{release.StatusPendingInstall, release.StatusPendingUpgrade, release.StatusPendingRollback} {
		t.Run(string(status), func(t *testing.T) {
			ns := localcluster.Namespace(t)
			ch := valuesChart(t, ns)
			storage := helmStorage(t, ns)
			d := helm.New(target.NewPool())
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			name := "stuck"
			revision := 1
			if status != release.StatusPendingInstall {
				if _, err := d.Apply(ctx, helmItem(t, "recover", helmConfig(t, ns, rawChart(t, ch), map[string]any{"name": name, "values": map[string]any{"v": "1"}}))); err != nil {
					t.Fatal(err)
				}
				revision = 2
			}
			// What an interrupted Apply of this item leaves: Helm stores the
			// release, with the item's label, before it creates anything.
			stuck := &release.Release{Name: name, Namespace: ns, Version: revision, Chart: ch, Config: map[string]any{},
				Info:   &release.Info{Status: status, Description: "interrupted"},
				Labels: map[string]string{deployer.OwnerLabel: deployer.OwnerValue("recover")}}
			if err := storage.Releases.Create(stuck); err != nil {
				t.Fatal(err)
			}
			res, err := d.Apply(ctx, helmItem(t, "recover", helmConfig(t, ns, rawChart(t, ch), map[string]any{"name": name, "values": map[string]any{"v": "2"}})))
			if err != nil {
				t.Fatalf("Apply after a %s release: %v", status, err)
			}
			last, err := storage.Releases.Last(name)
			if err != nil || last.Info.Status != release.StatusDeployed {
				t.Fatalf("last release = %v, %v; want deployed", last, err)
			}
			if !strings.Contains(string(res.ProviderStatus), `"name":"stuck"`) {
				t.Fatalf("status does not record the release: %s", res.ProviderStatus)
			}
			history, _ := storage.Releases.History(name)
			if len(history) > 4 {
				t.Fatalf("release history has %d revisions, want it kept small", len(history))
			}
		})
	}
}

// TestApply_ExportsFromValuesAndResources: exports read the render values
// (chart defaults merged with the configured values) and resources.
func TestApply_ExportsFromValuesAndResources(t *testing.T) {
	ns := localcluster.Namespace(t)
	ch := valuesChart(t, ns)
	ch.Values = map[string]any{"v": "default", "nested": map[string]any{"port": 8080}}
	// The archive's values.yaml is written from the raw file.
	ch.Raw = append(ch.Raw, &chart.File{Name: "values.yaml", Data: []byte("v: default\nnested: {port: 8080}\n")})
	cfg := helmConfig(t, ns, rawChart(t, ch), map[string]any{"name": "exp", "values": map[string]any{"v": "configured"},
		"exports": map[string]any{"exports": []any{
			map[string]any{"key": "v", "jsonPath": ".Values.v"},
			map[string]any{"key": "port", "jsonPath": ".Values.nested.port"},
			map[string]any{"key": "fromCM", "jsonPath": ".data.v", "fromResource": map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "name": "exp", "namespace": ns}},
		}}})
	d := helm.New(target.NewPool())
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	res, err := d.Apply(ctx, helmItem(t, "exports", cfg))
	if err != nil {
		t.Fatal(err)
	}
	got := string(deployertest.MustJSON(t, res.Exports))
	for _, want := range []string{`"v":"configured"`, `"port":8080`, `"fromCM":"configured"`} {
		if !strings.Contains(got, want) {
			t.Errorf("exports %s do not contain %s", got, want)
		}
	}
}

// TestApply_ManifestModeLookupAndNamespace: rendered charts can use lookup
// against the target, and createNamespace creates the namespace with
// policy keep, so deleting the item leaves it.
func TestApply_ManifestModeLookupAndNamespace(t *testing.T) {
	ns := localcluster.Namespace(t)
	fresh := ns + "-created"
	ch := testChart(t, nil, map[string]string{"cm.yaml": `apiVersion: v1
kind: ConfigMap
metadata: {name: looked-up, namespace: ` + fresh + `}
data: {uid: {{ (lookup "v1" "Namespace" "" "` + ns + `").metadata.uid | quote }}}
`})
	cfg := helmConfig(t, fresh, rawChart(t, ch), map[string]any{"name": "lookup", "helmDeployment": false, "createNamespace": true})
	d := helm.New(target.NewPool())
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	item := helmItem(t, "lookup", cfg)
	res, err := d.Apply(ctx, item)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { deleteNamespace(t, fresh) })
	if !strings.Contains(string(res.ProviderStatus), `"policy":"keep"`) {
		t.Fatalf("namespace not recorded with policy keep: %s", res.ProviderStatus)
	}
	c := newClusterReader(t)
	if uid := c.configMapData(t, fresh, "looked-up")["uid"]; uid == "" || uid == "<nil>" {
		t.Fatalf("lookup did not read the namespace: uid=%q", uid)
	}
	item.ProviderStatus = res.ProviderStatus
	if err := d.Delete(ctx, item, deployer.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	if !c.namespaceExists(t, fresh) {
		t.Fatal("Delete removed the namespace created with policy keep")
	}
}
