package helm_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"

	"helm.sh/helm/v3/pkg/chart"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer/helm"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer/manifest"
)

// previewChart is a small chart whose output depends on everything a
// local rendering must get right: values, release name and namespace,
// revision, capabilities; plus a hook, a test hook, a CRD and a random
// password.
func previewChart(t *testing.T) *chart.Chart {
	t.Helper()
	crd := map[string]any{"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
		"metadata": map[string]any{"name": "widgets.example.com"}}
	ch := testChart(t, []map[string]any{crd}, map[string]string{
		"config.yaml": `apiVersion: v1
kind: ConfigMap
metadata:
  name: {{ .Release.Name }}-config
  namespace: {{ .Release.Namespace }}
data:
  greeting: {{ .Values.greeting | quote }}
  kube: "{{ .Capabilities.KubeVersion.Major }}.{{ .Capabilities.KubeVersion.Minor }}"
  pdb: "{{ .Capabilities.APIVersions.Has "policy/v1/PodDisruptionBudget" }}"
  revision: "{{ .Release.Revision }}"
  upgrade: "{{ .Release.IsUpgrade }}"
  lookup: "{{ len (lookup "v1" "Secret" "kube-system" "") }}"
`,
		"secret.yaml": `apiVersion: v1
kind: Secret
metadata:
  name: {{ .Release.Name }}-password
stringData:
  password: {{ randAlphaNum 24 | quote }}
  user: admin
`,
		"hook.yaml": `apiVersion: batch/v1
kind: Job
metadata:
  name: migrate
  annotations:
    helm.sh/hook: pre-upgrade,pre-install
spec: {}
`,
		"test.yaml": `apiVersion: v1
kind: Pod
metadata:
  name: smoke
  annotations:
    helm.sh/hook: test
`,
	})
	ch.Values = map[string]any{"greeting": "hello"}
	ch.Raw = []*chart.File{{Name: "values.yaml", Data: []byte("greeting: hello\n")}} // what chartutil.Save writes
	return ch
}

func previewRequest(t *testing.T, ch *chart.Chart, extra map[string]any) deployer.PreviewRequest {
	t.Helper()
	return deployer.PreviewRequest{Item: deployer.Item{ID: "root/web", Name: "web", Type: helm.Type,
		Config: helmConfig(t, "apps", rawChart(t, ch), extra)}}
}

func preview(t *testing.T, req deployer.PreviewRequest) map[string]deployer.PreviewObject {
	t.Helper()
	// No pool: a preview never reaches a cluster.
	p, err := helm.New(nil).Preview(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]deployer.PreviewObject{}
	for _, o := range p.Objects {
		md, _ := o.Object["metadata"].(map[string]any)
		out[o.Object["kind"].(string)+"/"+md["name"].(string)] = o
	}
	return out
}

func configData(t *testing.T, objs map[string]deployer.PreviewObject) map[string]any {
	t.Helper()
	cm, ok := objs["ConfigMap/conformance-config"]
	if !ok {
		t.Fatalf("no ConfigMap in %v", keys(objs))
	}
	return cm.Object["data"].(map[string]any)
}

func keys(m map[string]deployer.PreviewObject) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

// TestPreview_RendersLocally: values, release, revision and recorded
// capabilities reach the templates; lookup finds nothing; hooks, CRDs and
// test hooks are treated as Helm treats them; no bookkeeping labels.
func TestPreview_RendersLocally(t *testing.T) {
	ch := previewChart(t)
	objs := preview(t, previewRequest(t, ch, map[string]any{"values": map[string]any{"greeting": "hi"}}))
	want := map[string]any{"greeting": "hi", "kube": defaultKube(), "pdb": "true", "revision": "1", "upgrade": "false", "lookup": "0"}
	if got := configData(t, objs); !reflect.DeepEqual(got, want) {
		t.Errorf("config data = %v, want %v", got, want)
	}
	if _, ok := objs["Pod/smoke"]; ok {
		t.Error("a test hook is in the preview; Helm runs it only on `helm test`")
	}
	if n := objs["Job/migrate"].Note; n != "helm hook: pre-upgrade, pre-install" {
		t.Errorf("hook note = %q", n)
	}
	if n := objs["CustomResourceDefinition/widgets.example.com"].Note; !strings.Contains(n, "crds/") {
		t.Errorf("CRD note = %q", n)
	}
	for k, o := range objs {
		md := o.Object["metadata"].(map[string]any)
		if md["labels"] != nil || md["annotations"] != nil && k != "Job/migrate" {
			t.Errorf("%s carries bookkeeping: %v", k, md)
		}
	}

	// Recorded capabilities and the revision after the recorded one.
	req := previewRequest(t, ch, nil)
	req.Capabilities = &deployer.Capabilities{KubeVersion: "v1.29.4", APIVersions: []string{"v1", "apps/v1"}}
	req.Item.ProviderStatus = json.RawMessage(`{"release":{"name":"conformance","namespace":"apps","revision":4}}`)
	got := configData(t, preview(t, req))
	for k, v := range map[string]any{"greeting": "hello", "kube": "1.29", "pdb": "false", "revision": "5", "upgrade": "true"} {
		if got[k] != v {
			t.Errorf("data.%s = %v, want %v", k, got[k], v)
		}
	}
}

// defaultKube is Helm's default Kubernetes version, which a preview uses
// when no capabilities were recorded.
func defaultKube() string {
	caps := helm.DefaultCapabilities()
	return caps.KubeMajor + "." + caps.KubeMinor
}

// TestPreview_Stable: a random value shows as generated, so two previews
// of the same item are identical; the Secret's fixed value stays.
func TestPreview_Stable(t *testing.T) {
	req := previewRequest(t, previewChart(t), nil)
	a, b := preview(t, req), preview(t, req)
	if !reflect.DeepEqual(a, b) {
		t.Fatalf("two previews of one item differ:\n%v\n%v", a, b)
	}
	data := a["Secret/conformance-password"].Object["data"].(map[string]any)
	// stringData is folded into data, as Apply does.
	if data["password"] != base64.StdEncoding.EncodeToString([]byte(deployer.Generated)) {
		t.Errorf("random password = %v, want %q in base64", data["password"], deployer.Generated)
	}
	if data["user"] != "YWRtaW4=" {
		t.Errorf("user = %v", data["user"])
	}
}

// TestPreview_RenderedMode: helmDeployment false shows what Apply applies:
// no hooks, CRDs without a note, the namespace it creates with policy keep.
func TestPreview_RenderedMode(t *testing.T) {
	objs := preview(t, previewRequest(t, previewChart(t), map[string]any{"helmDeployment": false, "createNamespace": true}))
	if _, ok := objs["Job/migrate"]; ok {
		t.Error("a hook is in the preview of a rendered chart, which never runs hooks")
	}
	if n := objs["CustomResourceDefinition/widgets.example.com"].Note; n != "" {
		t.Errorf("CRD note = %q, want none", n)
	}
	if n := objs["Namespace/apps"].Note; !strings.Contains(n, string(manifest.PolicyKeep)) {
		t.Errorf("namespace note = %q", n)
	}
}

// TestPreview_InvalidConfig: an invalid configuration is refused as
// Validate refuses it.
func TestPreview_InvalidConfig(t *testing.T) {
	_, err := helm.New(nil).Preview(context.Background(), deployer.PreviewRequest{Item: deployer.Item{Config: json.RawMessage(`{"name":"x"}`)}})
	if err == nil || !strings.Contains(err.Error(), "namespace is required") {
		t.Fatalf("err = %v", err)
	}
}

// TestPreview_BoundedByContext: a chart that renders for long does not
// hold the plan past its context (Helm's engine takes none).
func TestPreview_BoundedByContext(t *testing.T) {
	ch := testChart(t, nil, map[string]string{"slow.yaml": `{{ range until 4000 }}{{ range until 4000 }}{{ end }}{{ end }}`})
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := helm.New(nil).Preview(ctx, previewRequest(t, ch, nil))
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v, want the deadline", err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("returned after %v", d)
	}
}

// TestKubeMinorFollowsClientGo: the default capabilities' Kubernetes
// version is the one of the client-go in go.mod.
func TestKubeMinorFollowsClientGo(t *testing.T) {
	mod, err := os.ReadFile("../../../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	want := "\tk8s.io/client-go v0." + helm.KubeMinor + "."
	if !strings.Contains(string(mod), want) {
		t.Errorf("go.mod has no %q: update helm.KubeMinor with client-go", strings.TrimSpace(want))
	}
	if got := helm.DefaultCapabilities(); got.KubeVersion != "v1."+helm.KubeMinor+".0" {
		t.Errorf("default KubeVersion = %q", got.KubeVersion)
	}
}

// TestPreview_SkipSchemaValidation: the plan's preview checks the values
// against the chart's schema as the install would, and skips the check
// where install.skipSchemaValidation does; an upgrade's preview follows
// upgrade.skipSchemaValidation.
func TestPreview_SkipSchemaValidation(t *testing.T) {
	ch := previewChart(t)
	ch.Schema = []byte(`{"type":"object","properties":{"greeting":{"type":"integer"}}}`)
	values := map[string]any{"greeting": "not a number"}
	if _, err := helm.New(nil).Preview(context.Background(), previewRequest(t, ch, map[string]any{"values": values})); err == nil || !strings.Contains(err.Error(), "greeting") {
		t.Fatalf("preview with values the schema rejects: %v, want the schema's error", err)
	}
	skip := map[string]any{"values": values, "helmDeploymentConfig": map[string]any{"install": map[string]any{"skipSchemaValidation": true}}}
	if got := configData(t, preview(t, previewRequest(t, ch, skip))); got["greeting"] != "not a number" {
		t.Fatalf("preview with install.skipSchemaValidation: data %v", got)
	}
	upgrade := previewRequest(t, ch, skip)
	upgrade.Item.ProviderStatus = json.RawMessage(`{"release":{"name":"conformance","namespace":"apps","revision":2}}`)
	if _, err := helm.New(nil).Preview(context.Background(), upgrade); err == nil {
		t.Fatal("an upgrade's preview followed install.skipSchemaValidation")
	}
}
