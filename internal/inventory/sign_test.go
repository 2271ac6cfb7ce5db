package inventory

import (
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"strings"
	"testing"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/compress"
)

func testKey(b byte) []byte { return bytes.Repeat([]byte{b}, KeySize) }

func TestSignVerify(t *testing.T) {
	key, record := testKey(1), []byte(`{"version":1,"installation":"root","items":[{"id":"root/a"}]}`)
	sig := Sign(key, "cluster-a", "ns", "inv", record)
	if err := Verify(key, "cluster-a", "ns", "inv", record, sig); err != nil {
		t.Fatalf("a record verifies against its own signature: %v", err)
	}
	for i := range record { // every single byte changed is found
		tampered := bytes.Clone(record)
		tampered[i] ^= 0x01
		if err := Verify(key, "cluster-a", "ns", "inv", tampered, sig); !errors.Is(err, ErrBadSignature) {
			t.Fatalf("byte %d changed: err = %v, want ErrBadSignature", i, err)
		}
	}
	cases := []struct {
		name                     string
		key                      []byte
		cluster, namespace, snam string
		sig                      string
		want                     error
	}{
		{"wrong key", testKey(2), "cluster-a", "ns", "inv", sig, ErrBadSignature},
		{"another cluster", key, "cluster-b", "ns", "inv", sig, ErrBadSignature},
		{"no cluster identity", key, "", "ns", "inv", sig, ErrBadSignature},
		{"another Secret's name", key, "cluster-a", "ns", "other", sig, ErrBadSignature},
		{"another namespace", key, "cluster-a", "other", "inv", sig, ErrBadSignature},
		{"missing signature", key, "cluster-a", "ns", "inv", "", ErrUnsigned},
		{"not hex", key, "cluster-a", "ns", "inv", "zz" + sig[2:], ErrBadSignature},
		{"truncated", key, "cluster-a", "ns", "inv", sig[:32], ErrBadSignature},
	}
	for _, c := range cases {
		if err := Verify(c.key, c.cluster, c.namespace, c.snam, record, c.sig); !errors.Is(err, c.want) {
			t.Errorf("%s: err = %v, want %v", c.name, err, c.want)
		}
	}
}

// The signature a parent is written with is that of the record's
// uncompressed bytes, so a reader verifies what it decodes.
func TestWrittenRecordIsSigned(t *testing.T) {
	e, err := newEntry(RecordedItem{ID: "root/a", Name: "a", Type: "t", Config: []byte(`{"x":1}`)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	c := content{installation: "root", instance: "i", items: []entry{e}, key: testKey(1), cluster: "cluster-a",
		reconciled: &Reconciled{JobID: "j", Phase: api.InstallationPhaseFailed, Errors: map[string]string{"root/a": "boom"}}}
	u, err := c.object("inv", "ns")
	if err != nil {
		t.Fatal(err)
	}
	data := u.Object["data"].(map[string]any)
	gz, _ := base64.StdEncoding.DecodeString(data[recordKey].(string))
	sig, _ := base64.StdEncoding.DecodeString(data[signatureKey].(string))
	raw, err := compress.Gunzip(gz, maxRecordSize)
	if err != nil {
		t.Fatal(err)
	}
	if err := Verify(testKey(1), "cluster-a", "ns", "inv", raw, string(sig)); err != nil {
		t.Fatalf("the written record does not verify: %v\n%s", err, raw)
	}
	if !strings.Contains(string(raw), `"reconciled":{"jobID":"j","phase":"Failed","errors":{"root/a":"boom"}}`) {
		t.Errorf("the record does not hold the reconcile outcome: %s", raw)
	}
	c.key = nil
	if u, _ := c.object("inv", "ns"); u.Object["data"].(map[string]any)[signatureKey] != nil {
		t.Error("a record written without a key carries a signature")
	}
}

// A recorder that verifies refuses a parent whose record is unsigned,
// altered or signed with another key, naming the Secret, and writes
// nothing; one signed with its key is used.
func TestVerifyingOpen(t *testing.T) {
	ctx := context.Background()
	signedBy := func(key []byte) *slowSecrets {
		s := &slowSecrets{}
		p := newParentIn(s, "ns", "root", "instance-1")
		p.key = key
		e, _ := newEntry(RecordedItem{ID: "root/a", Name: "a", Type: "t", Config: []byte(`{"data":"good"}`)}, nil)
		p.items["root/a"] = e
		if err := p.write(ctx, p.contentLocked()); err != nil {
			t.Fatal(err)
		}
		return s
	}
	open := func(s *slowSecrets) error {
		p := newParentIn(s, "ns", "root", "instance-1")
		p.key, p.verify = testKey(1), true
		before := s.writes.Load()
		err := p.open(ctx, false)
		if err != nil {
			p.mu.Lock()
			p.reconciled, p.keep = &Reconciled{JobID: "j"}, true
			p.mu.Unlock()
			if cerr := p.close(ctx); cerr != nil || s.writes.Load() != before {
				t.Errorf("a refused parent was written (close: %v)", cerr)
			}
		}
		return err
	}
	if err := open(signedBy(testKey(1))); err != nil {
		t.Fatalf("a parent signed with the key is refused: %v", err)
	}
	for name, c := range map[string]struct {
		s    *slowSecrets
		want error
	}{
		"unsigned":     {signedBy(nil), ErrUnsigned},
		"another key":  {signedBy(testKey(2)), ErrBadSignature},
		"altered item": {alter(t, signedBy(testKey(1)), `"good"`, `"evil"`), ErrBadSignature},
	} {
		err := open(c.s)
		if !errors.Is(err, c.want) || !strings.Contains(err.Error(), "ns/"+ParentName("root")) ||
			!strings.Contains(err.Error(), "terraform apply") {
			t.Errorf("%s: err = %v, want %v naming the Secret and how to sign it again", name, err, c.want)
		}
	}
}

// alter replaces from with to in the record s stores, keeping its signature.
func alter(t *testing.T, s *slowSecrets, from, to string) *slowSecrets {
	t.Helper()
	data := s.stored.Object["data"].(map[string]any)
	gz, _ := base64.StdEncoding.DecodeString(data[recordKey].(string))
	raw, err := compress.Gunzip(gz, maxRecordSize)
	if err != nil || !bytes.Contains(raw, []byte(from)) {
		t.Fatalf("record %s: %v", raw, err)
	}
	data[recordKey] = base64.StdEncoding.EncodeToString(gzipped(t, bytes.Replace(raw, []byte(from), []byte(to), 1)))
	return s
}
