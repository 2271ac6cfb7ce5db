package provider

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
)

// memPrivate is private state as the framework keeps it: JSON values by key.
type memPrivate map[string][]byte

func (m memPrivate) GetKey(_ context.Context, k string) ([]byte, diag.Diagnostics) { return m[k], nil }
func (m memPrivate) SetKey(_ context.Context, k string, v []byte) diag.Diagnostics {
	var diags diag.Diagnostics
	if len(v) > 0 && !json.Valid(v) {
		diags.AddError("invalid", "private state values must be JSON")
	}
	m[k] = v
	return diags
}

func TestPrivateSnapshot_CompressedRoundTrip(t *testing.T) {
	// the snapshot is stored compressed as a JSON value and read back byte for byte; a snapshot of many items shrinks
	ctx := context.Background()
	snap := []byte(`{"version":2,"root":{"items":[` + strings.Repeat(`{"name":"item","config":{"kind":"ConfigMap","data":{"a":"b"}}},`, 999) + `{}]}}`)
	p := memPrivate{}
	if d := setSnapshot(ctx, p, snap); d.HasError() {
		t.Fatal(d)
	}
	if len(p[snapshotKey]) > len(snap)/5 {
		t.Errorf("stored %d bytes for a %d-byte snapshot", len(p[snapshotKey]), len(snap))
	}
	got, d := getSnapshot(ctx, p)
	if d.HasError() || !bytes.Equal(got, snap) {
		t.Fatalf("read back %d bytes, %v", len(got), d)
	}
}

func TestPrivateSnapshot_EarlierFormsAndDamage(t *testing.T) {
	// a snapshot written uncompressed (a JSON object) is read as it is; none is nil; a damaged one is an error without its content
	ctx := context.Background()
	old := []byte(`{"version":2,"root":{"name":"x"}}`)
	if got, d := getSnapshot(ctx, memPrivate{snapshotKey: old}); d.HasError() || !bytes.Equal(got, old) {
		t.Errorf("uncompressed snapshot: %s %v", got, d)
	}
	if got, d := getSnapshot(ctx, memPrivate{}); d.HasError() || got != nil {
		t.Errorf("no snapshot: %s %v", got, d)
	}
	for name, v := range map[string]string{"not base64": `"%%%secret%%%"`, "not gzip": `"c2VjcmV0"`, "not a string": `"abc`} {
		_, d := getSnapshot(ctx, memPrivate{snapshotKey: []byte(v)})
		if !d.HasError() || strings.Contains(d[0].Detail(), "secret") {
			t.Errorf("%s: %v", name, d)
		}
	}
}

func TestPrivateSnapshot_ExpansionBounded(t *testing.T) {
	// a compressed snapshot that expands beyond the bound is refused, not read into memory
	packed, err := packSnapshot(make([]byte, 1<<20+1))
	if err != nil {
		t.Fatal(err)
	}
	if got, err := unpackSnapshot(packed, 1<<20+1); err != nil || len(got) != 1<<20+1 {
		t.Fatalf("at the bound: %d bytes, %v", len(got), err)
	}
	if _, err := unpackSnapshot(packed, 1<<20); err == nil || !strings.Contains(err.Error(), "larger than") {
		t.Fatalf("error %v", err)
	}
}
