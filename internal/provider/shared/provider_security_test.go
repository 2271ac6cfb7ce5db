package shared

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine/snapshot"
)

func tokenTarget(t *testing.T, name, token string) api.Target {
	t.Helper()
	cfg, err := json.Marshal(api.KubernetesClusterConfig{Kubeconfig: "apiVersion: v1\nkind: Config\nusers: [{name: u, user: {token: " + token + "}}]\n"})
	if err != nil {
		t.Fatal(err)
	}
	return api.NewTarget(name, "", api.KubernetesClusterTargetType, cfg)
}

// What a job's snapshot holds is scrubbed from later messages: the
// credentials of targets a subinstallation imported or a blueprint
// exported (never in the configuration) and the exports the user named
// sensitive; other exports stay readable. Nothing is trusted.
func TestSecurity_learnSnapshot(t *testing.T) {
	snap := &engine.Snapshot{Root: &snapshot.Installation{
		Path:          "root",
		Exports:       map[string]any{"password": "pw-from-export", "url": "https://example.test"},
		TargetExports: map[string]api.Target{"made": tokenTarget(t, "made", "token-made-by-blueprint")},
		Subinstallations: []*snapshot.Installation{{
			Path: "root/sub",
			Targets: snapshot.TargetImports{
				Single: map[string]api.Target{"cluster": tokenTarget(t, "cluster", "token-of-sub-import")},
				Maps:   map[string]map[string]api.Target{"clusters": {"eu": tokenTarget(t, "eu", "token-of-map-element")}},
			},
		}},
	}}
	sec := &Security{}
	sec.LearnSnapshot(snap, []string{"password"})
	msg := sec.Secrets.String("a token-made-by-blueprint b token-of-sub-import c token-of-map-element d pw-from-export e https://example.test")
	for _, secret := range []string{"token-made-by-blueprint", "token-of-sub-import", "token-of-map-element", "pw-from-export"} {
		if strings.Contains(msg, secret) {
			t.Errorf("%q not scrubbed: %s", secret, msg)
		}
	}
	if !strings.Contains(msg, "https://example.test") {
		t.Errorf("an export not named sensitive was scrubbed: %s", msg)
	}
}

// Blueprint warnings go into diagnostics and the data source's state: a
// field name a template built from a secret import is scrubbed there too.
func TestRenderTree_warningsScrubbed(t *testing.T) {
	bp, err := blueprint.Parse([]byte(`apiVersion: landscaper.gardener.cloud/v1alpha1
kind: Blueprint
imports:
- {name: password, schema: {type: string}}
deployExecutions:
- type: GoTemplate
  template: |
    deployItems:
    - name: app
      type: landscaper.gardener.cloud/mock
      config: {}
      {{ .imports.password }}: oops
      https://user:urlpass@example.test/x: oops
`))
	if err != nil {
		t.Fatal(err)
	}
	sec := &Security{}
	sec.Secrets.Add("pw-from-a-secret")
	var diags diag.Diagnostics
	tree, _ := RenderTree(context.Background(), sec, nil, engine.RootSpec{Name: "app", Blueprint: bp,
		Imports: blueprint.Imports{Data: map[string]any{"password": "pw-from-a-secret"}}}, nil, &diags)
	if tree == nil || diags.WarningsCount() == 0 {
		t.Fatalf("no warnings rendered: %v", diags)
	}
	all := strings.Join(tree.Warnings, "\n")
	for _, d := range diags {
		all += "\n" + d.Detail()
	}
	for _, leak := range []string{"pw-from-a-secret", "urlpass"} {
		if strings.Contains(all, leak) {
			t.Errorf("warnings leak %q:\n%s", leak, all)
		}
	}
}

// Every job the provider runs seals, in the inventory, a deploy item
// configuration that holds a registered secret (issue 32): the runner of
// ProviderData.Instances carries Security.ConfigHoldsSecret.
func TestInstances_SealWhatHoldsASecret(t *testing.T) {
	d := &ProviderData{Security: &Security{}}
	d.Security.Secrets.AddValue(map[string]any{"password": "cnry-0a1b2c"})
	r := d.Instances(context.Background())
	if r.HoldsSecret == nil {
		t.Fatal("the provider's runner seals nothing: HoldsSecret is unset")
	}
	if !r.HoldsSecret(json.RawMessage(`{"data":{"p":"cnry-0a1b2c"}}`)) {
		t.Error("a configuration holding a Secret import's value is not sealed")
	}
	if r.HoldsSecret(json.RawMessage(`{"data":{"p":"plain"}}`)) {
		t.Error("an ordinary configuration is sealed: an import would lose it")
	}
}
