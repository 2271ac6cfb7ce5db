package shared

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/compress"
)

// The engine snapshot is the largest part of an installation's state
// (~1.5 KB of JSON per deploy item), and Terraform handles it as opaque
// bytes: it copies, base64-encodes and writes the whole state file after
// each resource it changes. In private state it is therefore kept
// gzip-compressed, as a JSON string of base64 (the framework accepts only
// JSON values there). A snapshot written before compression — a JSON
// object — is read as it is.

// MaxSnapshotBytes bounds what a compressed snapshot may expand to: the
// state file is input nobody here wrote.
const MaxSnapshotBytes = 512 << 20

// GetSnapshot returns the engine snapshot recorded in private state, as
// the engine encoded it; nil when none is recorded.
func GetSnapshot(ctx context.Context, p PrivateGetter) ([]byte, diag.Diagnostics) {
	b, diags := p.GetKey(ctx, SnapshotKey)
	if diags.HasError() || len(b) == 0 || b[0] != '"' {
		return b, diags
	}
	raw, err := UnpackSnapshot(b, MaxSnapshotBytes)
	if err != nil {
		AddError(&diags, nil, "Cannot Read Engine Snapshot", fmt.Errorf("the private state's engine snapshot is damaged: %w", err))
		return nil, diags
	}
	return raw, diags
}

// SetSnapshot records the engine snapshot b in private state, compressed,
// through the masking exit (SetPrivate).
func (s *Security) SetSnapshot(ctx context.Context, p PrivateSetter, b []byte) diag.Diagnostics {
	return s.SetPrivate(ctx, p, SnapshotKey, b, true)
}

// PackSnapshot gzips b and wraps it as a JSON string of base64. The
// default level, not BestSpeed: its output is ~13 % smaller, and every
// byte of it is base64-encoded twice more (the framework's private state,
// the state file) and rewritten by Terraform after each resource it
// changes, while the extra compression costs ~0.3 ms per 100 items once
// per apply.
func PackSnapshot(b []byte) ([]byte, error) {
	var buf bytes.Buffer
	zw, err := gzip.NewWriterLevel(&buf, gzip.DefaultCompression)
	if err != nil {
		return nil, err
	}
	if _, err := zw.Write(b); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return json.Marshal(base64.StdEncoding.EncodeToString(buf.Bytes()))
}

// UnpackSnapshot reverses packSnapshot, refusing more than limit bytes.
func UnpackSnapshot(b []byte, limit int64) ([]byte, error) {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return nil, err
	}
	z, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		return nil, errors.New("not base64")
	}
	return compress.Gunzip(z, limit)
}

// SnapshotKey is the private-state key of the engine snapshot: the whole
// object tree of the last job, from which the next job and destroy start.
const SnapshotKey = "engine_snapshot"

// Provenance says who wrote the state and private snapshot a refresh or a
// destroy starts from. An apply of the user's configuration wrote them, or
// an import filled them from an inventory in a cluster, which whoever may
// write Secrets there can have planted (docs/guides/security.md): then
// none of the snapshot's targets is the user's own until the next apply
// derives them from the configuration again — but for the targets the
// import made itself, one per target_kubeconfigs cluster it searched
// (ProviderData.ProviderTargets), whose random references a record
// written before the import cannot hold. Only SnapshotProvenance makes a
// Provenance that trusts; the zero value trusts nothing.
type Provenance struct {
	applied bool
	// own are the import's own targets, by ownKey.
	own map[string]bool
}

// Applied reports whether an apply of the configuration wrote the state.
func (p Provenance) Applied() bool { return p.applied }

// Own reports whether t is a target the import made itself.
func (p Provenance) Own(t api.Target) bool { return p.own[ownKey(t)] }

func ownKey(t api.Target) string {
	ref := t.Metadata.Annotations[api.KubeconfigFromProviderAnnotation]
	if ref == "" {
		return ""
	}
	return t.Metadata.Name + "\x00" + ref
}

// importedKey marks private state an import filled from a cluster, with
// the import's own targets ([name, reference] pairs); the next apply
// (Create, Update) removes it.
const importedKey = "filled_from_cluster"

// SnapshotProvenance reads who wrote the private state p.
func SnapshotProvenance(ctx context.Context, p PrivateGetter, diags *diag.Diagnostics) Provenance {
	b, d := p.GetKey(ctx, importedKey)
	diags.Append(d...)
	if d.HasError() {
		return Provenance{}
	}
	if len(b) == 0 {
		return Provenance{applied: true}
	}
	var pairs [][2]string
	_ = json.Unmarshal(b, &pairs) // anything else: no own targets
	own := make(map[string]bool, len(pairs))
	for _, pair := range pairs {
		if pair[0] != "" && pair[1] != "" {
			own[pair[0]+"\x00"+pair[1]] = true
		}
	}
	return Provenance{own: own}
}

// MarkFilledFromCluster records in p that an import filled the state from
// a cluster, searching it with its own targets searched.
func (s *Security) MarkFilledFromCluster(ctx context.Context, p PrivateSetter, searched []api.Target) diag.Diagnostics {
	pairs := [][2]string{}
	for _, t := range searched {
		if ref := t.Metadata.Annotations[api.KubeconfigFromProviderAnnotation]; ref != "" {
			pairs = append(pairs, [2]string{t.Metadata.Name, ref})
		}
	}
	b, err := json.Marshal(pairs)
	if err != nil {
		var diags diag.Diagnostics
		AddError(&diags, s, "Cannot Record The Import", err)
		return diags
	}
	return s.SetPrivate(ctx, p, importedKey, b, false)
}

// MarkApplied records in p that an apply of the configuration wrote the
// state (a zero-length value removes the key).
func (s *Security) MarkApplied(ctx context.Context, p PrivateSetter) diag.Diagnostics {
	return s.SetPrivate(ctx, p, importedKey, nil, false)
}
