// Package compress reads gzip data that comes from outside the process —
// state files, Landscaper's objects, inventory Secrets — with a bound on
// what it may expand to, so a small hostile input cannot make the
// provider inflate gigabytes.
package compress

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
)

// Gunzip returns the uncompressed content of b, refusing more than limit
// bytes.
func Gunzip(b []byte, limit int64) ([]byte, error) {
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		return nil, fmt.Errorf("not gzip: %w", err)
	}
	raw, err := io.ReadAll(io.LimitReader(zr, limit+1))
	if err != nil {
		return nil, fmt.Errorf("not gzip: %w", err)
	}
	if int64(len(raw)) > limit {
		return nil, fmt.Errorf("more than %d bytes uncompressed", limit)
	}
	return raw, nil
}
