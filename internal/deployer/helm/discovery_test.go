package helm_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer/deployertest"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer/helm"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/target"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/testsupport/localcluster"
)

// TestApply_HelmKeepsSharedDiscovery: Helm's actions use the pool's
// discovery cache instead of invalidating it at every install and
// upgrade, so a second release on the same cluster reads neither the API
// groups nor the OpenAPI documents again — and its templates still see
// the cluster's real capabilities.
func TestApply_HelmKeepsSharedDiscovery(t *testing.T) {
	ns := localcluster.Namespace(t)
	rec := &deployertest.RequestLog{}
	d := helm.New(target.NewPool(target.WithWrapTransport(rec.Wrap)))
	ch := testChart(t, nil, map[string]string{"cm.yaml": `apiVersion: v1
kind: ConfigMap
metadata: {name: {{ .Release.Name }}, namespace: ` + ns + `}
data:
  apps: {{ .Capabilities.APIVersions.Has "apps/v1" | quote }}
  made-up: {{ .Capabilities.APIVersions.Has "made-up.example.com/v1" | quote }}
  kube: {{ .Capabilities.KubeVersion.Version | quote }}
  v: {{ .Values.v | quote }}
`})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	apply := func(name, v string) {
		t.Helper()
		item := helmItem(t, name, helmConfig(t, ns, rawChart(t, ch), map[string]any{"name": name, "values": map[string]any{"v": v}}))
		if _, err := d.Apply(ctx, item); err != nil {
			t.Fatal(err)
		}
	}
	apply("first", "1")
	rec.Take()
	apply("second", "1")
	apply("second", "2") // an upgrade
	for _, r := range rec.Take() {
		p := r.Method + " " + r.Path
		if strings.HasSuffix(p, " /api") || strings.HasSuffix(p, " /apis") || strings.Contains(p, "/openapi/") {
			t.Errorf("a later install or upgrade read discovery again: %s", p)
		}
	}
	data := newClusterReader(t).configMapData(t, ns, "second")
	if data["apps"] != "true" || data["made-up"] != "false" || !strings.HasPrefix(data["kube"], "v1.") || data["v"] != "2" {
		t.Fatalf("capabilities in the templates: %v; want apps/v1 present, made-up.example.com/v1 absent, a v1.x version, v=2", data)
	}
}
