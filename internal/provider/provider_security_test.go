package provider

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
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
	sec := &security{}
	sec.learnSnapshot(snap, []string{"password"})
	msg := sec.secrets.String("a token-made-by-blueprint b token-of-sub-import c token-of-map-element d pw-from-export e https://example.test")
	for _, secret := range []string{"token-made-by-blueprint", "token-of-sub-import", "token-of-map-element", "pw-from-export"} {
		if strings.Contains(msg, secret) {
			t.Errorf("%q not scrubbed: %s", secret, msg)
		}
	}
	if !strings.Contains(msg, "https://example.test") {
		t.Errorf("an export not named sensitive was scrubbed: %s", msg)
	}
}
