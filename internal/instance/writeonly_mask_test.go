package instance

import (
	"encoding/base64"
	"encoding/json"
	"strings"
	"testing"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine/snapshot"
)

// maskWriteOnly leaves no form of a write-only value in what a snapshot
// stores (configs, exports, state), keeps the config hash and everything
// else, and marks the masked item.
func TestMaskWriteOnly(t *testing.T) {
	const secret = "s3cr3t-<&>-value"
	b64 := base64.StdEncoding.EncodeToString([]byte(secret))
	cfg, err := json.Marshal(map[string]any{"manifests": []any{map[string]any{
		"data": map[string]any{"plain": "x " + secret + " y", "encoded": b64, "other": "kept"}}}})
	if err != nil {
		t.Fatal(err)
	}
	quoted := func(what string) *snapshot.Error {
		return &snapshot.Error{Operation: "Reconcile", Reason: what, Message: `values don't meet the specifications of the schema(s): at '/password': got "` + secret + `", ` + b64}
	}
	snap := &engine.Snapshot{Version: snapshot.Version, Root: &snapshot.Installation{Path: "app", Name: "app",
		Exports: map[string]any{"echo": secret, "n": 1}, LastError: quoted("installation " + secret),
		Execution: &snapshot.Execution{LastError: quoted("execution"), DeployItems: []*snapshot.DeployItem{
			{ID: "app/a", Name: "a", Config: cfg, ConfigHash: "h", Exports: map[string]any{"k": []any{secret}}, LastError: quoted("item")},
			{ID: "app/b", Name: "b", Config: json.RawMessage(`{"other":"kept"}`)},
		}}}}
	MaskWriteOnly(snap, []string{secret, b64})

	all, err := snapshot.Marshal(snap)
	if err != nil {
		t.Fatal(err)
	}
	escaped, _ := json.Marshal(secret)
	for _, form := range []string{secret, b64, string(escaped[1 : len(escaped)-1])} {
		if strings.Contains(string(all), form) {
			t.Errorf("the snapshot still holds %q:\n%s", form, all)
		}
	}
	items := snap.Root.Execution.DeployItems
	if !items[0].Masked() || items[1].Masked() {
		t.Errorf("Masked() = %v, %v; want true for the item that held the value only", items[0].Masked(), items[1].Masked())
	}
	if items[0].ConfigHash != "h" || !strings.Contains(string(items[0].Config), `"other":"kept"`) || string(items[1].Config) != `{"other":"kept"}` {
		t.Errorf("masking changed more than the value: %s / %s (hash %s)", items[0].Config, items[1].Config, items[0].ConfigHash)
	}
	if snap.Root.Exports["echo"] != snapshot.WriteOnlyMask || snap.Root.Exports["n"] != 1 {
		t.Errorf("exports = %v", snap.Root.Exports)
	}
}
