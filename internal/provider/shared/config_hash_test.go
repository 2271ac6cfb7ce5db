package shared

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
)

// fakePrivate is private state as the framework keeps it: JSON values by
// key (the framework refuses anything else).
type fakePrivate map[string][]byte

func (p fakePrivate) GetKey(_ context.Context, k string) ([]byte, diag.Diagnostics) { return p[k], nil }
func (p fakePrivate) SetKey(_ context.Context, k string, v []byte) diag.Diagnostics {
	var diags diag.Diagnostics
	if len(v) > 0 && !json.Valid(v) {
		diags.AddError("Invalid Private State Value", "private state values must be JSON")
	}
	p[k] = v
	return diags
}

// The key survives private state, hashes are stable under one key and
// differ between keys, and none is the engine hash it was made from.
func TestConfigHashKey(t *testing.T) {
	ctx := context.Background()
	var diags diag.Diagnostics
	p := fakePrivate{}
	if k := ReadConfigHashKey(ctx, p, &diags); k != nil {
		t.Fatalf("empty private state has a key: %x", k)
	}
	k := EnsureConfigHashKey(ctx, p, &diags)
	k.Store(ctx, p, &diags)
	again := ReadConfigHashKey(ctx, p, &diags)
	if diags.HasError() || string(again) != string(k) {
		t.Fatalf("key not read back: %x vs %x (%v)", again, k, diags)
	}
	other, err := NewConfigHashKey()
	if err != nil {
		t.Fatal(err)
	}
	const engineHash = "0123456789abcdef0123456789abcdef"
	h := k.hash(engineHash)
	if h != again.hash(engineHash) || len(h) != 32 {
		t.Errorf("hash not stable or not 128 bits: %q", h)
	}
	if h == other.hash(engineHash) || h == engineHash {
		t.Errorf("hash %q does not depend on the key", h)
	}
	p[configHashKeyName] = []byte(`"not hex"`)
	diags = nil
	if k := ReadConfigHashKey(ctx, p, &diags); k != nil || diags.WarningsCount() != 1 {
		t.Errorf("damaged key read as %x, diagnostics %v", k, diags)
	}
}

// A state written before keys existed gets a key at refresh and its bare
// hashes are replaced by keyed ones, which the next plan computes alike;
// a state with a key is left alone.
func TestRekeyLegacyHashes(t *testing.T) {
	ctx := context.Background()
	var diags diag.Diagnostics
	const bare = "0123456789abcdef0123456789abcdef"
	var m InstallationModel
	m.SetDeployItems([]DeployItemRow{{Installation: "app", Name: "db", Phase: "Succeeded", ConfigHash: bare}}, true, &diags)
	prior, next := fakePrivate{}, fakePrivate{}
	if !RekeyLegacyHashes(ctx, prior, next, &m, &diags) || diags.HasError() {
		t.Fatalf("legacy state not rekeyed: %v", diags)
	}
	k := ReadConfigHashKey(ctx, next, &diags)
	rows, _ := StateRows(m)
	if k == nil || len(rows) != 1 || rows[0].ConfigHash != k.hash(bare) {
		t.Fatalf("rows %+v not keyed with the stored key %x", rows, k)
	}
	before := m.DeployItems
	if RekeyLegacyHashes(ctx, next, fakePrivate{}, &m, &diags) || !m.DeployItems.Equal(before) {
		t.Error("a keyed state was rekeyed")
	}
}
