package instance

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer/manifest"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer/mock"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/preview"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/target"
)

// unreachableKubeconfig names an API server nobody listens on.
const unreachableKubeconfig = `apiVersion: v1
kind: Config
clusters: [{name: c, cluster: {server: "https://127.0.0.1:1"}}]
users: [{name: u, user: {token: abcd}}]
contexts: [{name: c, context: {cluster: c, user: u, namespace: apps}}]
current-context: c
`

// previewSpec renders a manifest item (a ConfigMap holding a secret and a
// Secret) deploying to the target import "cluster", and a mock item.
func previewSpec(t *testing.T, secret string) engine.RootSpec {
	t.Helper()
	bp, err := blueprint.Parse([]byte(`apiVersion: landscaper.gardener.cloud/v1alpha1
kind: Blueprint
imports:
- name: cluster
  targetType: landscaper.gardener.cloud/kubernetes-cluster
- name: password
  schema: {type: string}
deployExecutions:
- name: main
  type: GoTemplate
  template: |
    deployItems:
    - name: config
      type: ` + manifest.Type + `
      target: {import: cluster}
      config:
        apiVersion: manifest.deployer.landscaper.gardener.cloud/v1alpha2
        kind: ProviderConfiguration
        manifests:
        - policy: manage
          manifest:
            apiVersion: v1
            kind: ConfigMap
            metadata: {name: settings}
            data: {url: "postgres://app:{{ .imports.password }}@db/app", color: blue}
        - policy: manage
          manifest:
            apiVersion: v1
            kind: Secret
            metadata: {name: creds}
            stringData: {password: {{ .imports.password | quote }}}
    - {name: probe, type: ` + mock.Type + `, config: {phase: Succeeded}}
`))
	if err != nil {
		t.Fatal(err)
	}
	return engine.RootSpec{Name: "app", Blueprint: bp, Imports: blueprint.Imports{
		Data: map[string]any{"password": secret},
		Targets: map[string]api.Target{"cluster": api.NewTarget("cluster", "", api.KubernetesClusterTargetType,
			[]byte(`{"kubeconfig":`+quoteJSON(unreachableKubeconfig)+`}`))},
	}}
}

func quoteJSON(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\n':
			b.WriteString(`\n`)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

func previewRunner() Runner {
	pool := target.NewPool()
	reg := deployer.NewRegistry()
	reg.Register(manifest.Type, manifest.New(pool))
	reg.Register(mock.Type, mock.New())
	return Runner{Engine: &engine.Engine{Deployers: reg}, Pool: pool}
}

// TestPreview_Local: a manifest item shows its objects (the Secret's value
// and the password in the URL masked), a mock item its configuration;
// Skip leaves items out; the same input gives the same bytes.
func TestPreview_Local(t *testing.T) {
	tree, err := engine.Render(context.Background(), previewSpec(t, "hunter2hunter2"), nil)
	if err != nil {
		t.Fatal(err)
	}
	var sens preview.Sensitive
	sens.Add("hunter2hunter2")
	r := previewRunner()
	texts := r.Preview(context.Background(), tree, nil, PreviewOptions{Sensitive: &sens})
	if len(texts) != 2 || texts[0].ID != "app/config" || texts[1].ID != "app/probe" {
		t.Fatalf("texts %+v", texts)
	}
	config := texts[0].Text
	for _, want := range []string{"# v1 ConfigMap settings\n", "color: blue", "postgres://app:(sensitive value v1)@db/app",
		"# v1 Secret creds\n", "password: (sensitive value v1)"} {
		if !strings.Contains(config, want) {
			t.Errorf("config lacks %q:\n%s", want, config)
		}
	}
	if strings.Contains(config, "hunter2") || texts[0].Err != nil {
		t.Errorf("config shows the secret or failed (%v):\n%s", texts[0].Err, config)
	}
	if !strings.Contains(texts[1].Text, "kind: DeployItem") || !strings.Contains(texts[1].Text, "phase: Succeeded") {
		t.Errorf("the mock item is not shown by its configuration:\n%s", texts[1].Text)
	}
	again := r.Preview(context.Background(), tree, nil, PreviewOptions{Sensitive: &sens, Skip: func(id string) bool { return id == "app/probe" }})
	if len(again) != 1 || again[0].Text != config {
		t.Errorf("a second preview differs or skipped nothing: %+v", again)
	}
}

// TestPreview_ServerUnreachable: asked to dry-run against a cluster that
// does not answer, the item shows its offline preview and says why,
// within the timeout.
func TestPreview_ServerUnreachable(t *testing.T) {
	tree, err := engine.Render(context.Background(), previewSpec(t, "hunter2hunter2"), nil)
	if err != nil {
		t.Fatal(err)
	}
	r := previewRunner()
	local := r.Preview(context.Background(), tree, nil, PreviewOptions{})
	start := time.Now()
	server := r.Preview(context.Background(), tree, nil, PreviewOptions{Server: &ServerOptions{Timeout: 5 * time.Second}})
	if time.Since(start) > 10*time.Second {
		t.Errorf("the unreachable cluster held the plan for %s", time.Since(start))
	}
	if server[0].Offline == nil || server[0].Text != local[0].Text {
		t.Errorf("the unreachable item: offline %v, text\n%s\nwant\n%s", server[0].Offline, server[0].Text, local[0].Text)
	}
	if server[1].Offline != nil || server[1].Text != local[1].Text {
		t.Errorf("the mock item (nothing to ask): offline %v", server[1].Offline)
	}
}

// TestPreviewRecorded: after a job, the recorded items are shown as the
// plan showed them.
func TestPreviewRecorded(t *testing.T) {
	ctx := context.Background()
	r := mockRunner()
	spec := twoItems(t, "Succeeded", false)
	tree, err := engine.Render(context.Background(), spec, nil)
	if err != nil {
		t.Fatal(err)
	}
	job, err := r.Apply(ctx, spec, nil, deployer.NewInstance())
	if err != nil {
		t.Fatal(err)
	}
	planned := r.Preview(ctx, tree, nil, PreviewOptions{})
	recorded := r.PreviewRecorded(ctx, job.Snapshot, spec.Blueprint, nil, PreviewOptions{})
	if len(planned) != 2 || len(recorded) != 2 {
		t.Fatalf("planned %d, recorded %d", len(planned), len(recorded))
	}
	byID := map[string]string{}
	for _, p := range planned {
		byID[p.ID] = p.Text
	}
	for _, rec := range recorded {
		if rec.Err != nil || rec.Text != byID[rec.ID] || rec.Text == "" {
			t.Errorf("%s recorded as\n%s\nplanned as\n%s (%v)", rec.ID, rec.Text, byID[rec.ID], rec.Err)
		}
	}
}
