package shared

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

func TestPrivateSnapshot_CompressedRoundTrip(t *testing.T) {
	// the snapshot is stored compressed as a JSON value and read back byte for byte; a snapshot of many items shrinks
	ctx := context.Background()
	snap := []byte(`{"version":2,"root":{"items":[` + strings.Repeat(`{"name":"item","config":{"kind":"ConfigMap","data":{"a":"b"}}},`, 999) + `{}]}}`)
	p := fakePrivate{}
	if d := (*Security)(nil).SetSnapshot(ctx, p, snap); d.HasError() {
		t.Fatal(d)
	}
	if len(p[SnapshotKey]) > len(snap)/5 {
		t.Errorf("stored %d bytes for a %d-byte snapshot", len(p[SnapshotKey]), len(snap))
	}
	got, d := GetSnapshot(ctx, p)
	if d.HasError() || !bytes.Equal(got, snap) {
		t.Fatalf("read back %d bytes, %v", len(got), d)
	}
}

func TestPrivateSnapshot_EarlierFormsAndDamage(t *testing.T) {
	// a snapshot written uncompressed (a JSON object) is read as it is; none is nil; a damaged one is an error without its content
	ctx := context.Background()
	old := []byte(`{"version":2,"root":{"name":"x"}}`)
	if got, d := GetSnapshot(ctx, fakePrivate{SnapshotKey: old}); d.HasError() || !bytes.Equal(got, old) {
		t.Errorf("uncompressed snapshot: %s %v", got, d)
	}
	if got, d := GetSnapshot(ctx, fakePrivate{}); d.HasError() || got != nil {
		t.Errorf("no snapshot: %s %v", got, d)
	}
	for name, v := range map[string]string{"not base64": `"%%%secret%%%"`, "not gzip": `"c2VjcmV0"`, "not a string": `"abc`} {
		_, d := GetSnapshot(ctx, fakePrivate{SnapshotKey: []byte(v)})
		if !d.HasError() || strings.Contains(d[0].Detail(), "secret") {
			t.Errorf("%s: %v", name, d)
		}
	}
}

func TestPrivateSnapshot_ExpansionBounded(t *testing.T) {
	// a compressed snapshot that expands beyond the bound is refused, not read into memory
	packed, err := PackSnapshot(make([]byte, 1<<20+1))
	if err != nil {
		t.Fatal(err)
	}
	if got, err := UnpackSnapshot(packed, 1<<20+1); err != nil || len(got) != 1<<20+1 {
		t.Fatalf("at the bound: %d bytes, %v", len(got), err)
	}
	if _, err := UnpackSnapshot(packed, 1<<20); err == nil || !strings.Contains(err.Error(), "more than") {
		t.Fatalf("error %v", err)
	}
}
