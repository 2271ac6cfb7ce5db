package compress

import (
	"bytes"
	"compress/gzip"
	"strings"
	"testing"
)

func TestGunzip(t *testing.T) {
	// content up to the bound comes back exactly; beyond it, and anything that is not gzip, is an error
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	content := bytes.Repeat([]byte("landscaper "), 1000)
	if _, err := zw.Write(content); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if got, err := Gunzip(buf.Bytes(), int64(len(content))); err != nil || !bytes.Equal(got, content) {
		t.Fatalf("at the bound: %d bytes, %v", len(got), err)
	}
	if _, err := Gunzip(buf.Bytes(), int64(len(content))-1); err == nil || !strings.Contains(err.Error(), "more than") {
		t.Errorf("beyond the bound: %v", err)
	}
	if _, err := Gunzip([]byte("plain"), 100); err == nil || !strings.Contains(err.Error(), "not gzip") {
		t.Errorf("not gzip: %v", err)
	}
	if _, err := Gunzip(buf.Bytes()[:buf.Len()/2], int64(len(content))); err == nil {
		t.Error("a truncated stream was accepted")
	}
}
