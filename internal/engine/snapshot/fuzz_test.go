package snapshot

import (
	"bytes"
	"os"
	"testing"
)

// FuzzUnmarshal proves that no private-state content panics the decoder and
// that whatever decodes re-encodes to a fixed point.
func FuzzUnmarshal(f *testing.F) {
	for _, name := range []string{"testdata/migration/v1.json", "testdata/migration/v2.golden.json",
		"testdata/compat/v2-target-table.json", "testdata/compat/v2-inline-targets.json"} {
		b, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte(`{"version":2,"root":{"path":"r","name":"r","subinstallations":[{"path":"r/a","name":"a"}]}}`))
	f.Fuzz(func(t *testing.T, in []byte) {
		s, err := Unmarshal(in)
		if err != nil {
			return
		}
		a, err := Marshal(s)
		if err != nil {
			t.Fatalf("decoded snapshot does not encode: %v", err)
		}
		s2, err := Unmarshal(a)
		if err != nil {
			t.Fatalf("encoded snapshot does not decode: %v\n%s", err, a)
		}
		b, err := Marshal(s2)
		if err != nil || !bytes.Equal(a, b) {
			t.Fatalf("not a fixed point: %v\n%s\n%s", err, a, b)
		}
	})
}
