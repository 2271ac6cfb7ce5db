package shared

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/fingerprint"
)

// configHashKeyName is the private-state key of the installation's
// config_hash key. The config_hash values of deploy_items are not
// sensitive, so a bare hash of a configuration holding a low-entropy
// secret (a short password) could be brute-forced offline from a plan or
// `terraform show`; keyed with a random key that only private state holds,
// it cannot
// (docs/guides/security.md, "config_hash").
const configHashKeyName = "config_hash_key"

// configHashKeyBytes is the key length: HMAC-SHA256's block-size-safe
// full-strength key.
const configHashKeyBytes = 32

// ConfigHashKey is one installation's key.
type ConfigHashKey []byte

// NewConfigHashKey draws a new key. It is created when an installation is
// first applied (Create gets an empty private state from the framework,
// whatever ModifyPlan planned), so a create's plan shows config_hash as
// known after apply; every later plan reads the key and shows it.
func NewConfigHashKey() (ConfigHashKey, error) {
	k := make(ConfigHashKey, configHashKeyBytes)
	if _, err := rand.Read(k); err != nil {
		return nil, fmt.Errorf("drawing the config_hash key: %w", err)
	}
	return k, nil
}

// PrivateGetter and privateSetter are the parts of the framework's
// private state the key needs (requests read, responses write).
type PrivateGetter interface {
	GetKey(context.Context, string) ([]byte, diag.Diagnostics)
}

type PrivateSetter interface {
	SetKey(context.Context, string, []byte) diag.Diagnostics
}

// ReadConfigHashKey returns the key private state holds; nil when there
// is none yet (a create, or state written before keys existed). Private
// state values must be JSON, so the key is stored as a hex string.
func ReadConfigHashKey(ctx context.Context, p PrivateGetter, diags *diag.Diagnostics) ConfigHashKey {
	raw, d := p.GetKey(ctx, configHashKeyName)
	diags.Append(d...)
	if len(raw) == 0 {
		return nil
	}
	var s string
	var k []byte
	err := json.Unmarshal(raw, &s)
	if err == nil {
		k, err = hex.DecodeString(s)
	}
	if err != nil || len(k) != configHashKeyBytes {
		// A damaged key only costs one update that shows every hash as
		// changed; the apply stores a new one.
		diags.AddWarning("Config Hash Key Unreadable", "the private state's config_hash key is damaged; the next apply replaces it")
		return nil
	}
	return k
}

// EnsureConfigHashKey returns the key of p, or a new one when p has none.
func EnsureConfigHashKey(ctx context.Context, p PrivateGetter, diags *diag.Diagnostics) ConfigHashKey {
	if k := ReadConfigHashKey(ctx, p, diags); k != nil {
		return k
	}
	k, err := NewConfigHashKey()
	if err != nil {
		AddError(diags, nil, "Cannot Create Config Hash Key", err)
	}
	return k
}

// Store writes the key into private state.
func (k ConfigHashKey) Store(ctx context.Context, p PrivateSetter, diags *diag.Diagnostics) {
	if k == nil {
		return
	}
	raw, err := json.Marshal(hex.EncodeToString(k))
	if err != nil {
		AddError(diags, nil, "Cannot Record Config Hash Key", err)
		return
	}
	diags.Append(p.SetKey(ctx, configHashKeyName, raw)...)
}

// hash is the config_hash users see for a configuration whose engine hash
// (snapshot.Hash: SHA-256 of its canonical JSON, 128 bits) is engineHash:
// HMAC-SHA256 under k of that hash, its first 128 bits in hex. Equal
// configurations keep equal hashes within one installation, so a plan
// still shows which items change.
func (k ConfigHashKey) hash(engineHash string) string {
	// The engine hash is a fingerprint already (without write-only forms).
	return fingerprint.Keyed(k, nil, engineHash)
}

// KeyRows replaces the engine hashes of rows with keyed ones.
func (k ConfigHashKey) KeyRows(rows []DeployItemRow) {
	for i := range rows {
		rows[i].ConfigHash = k.hash(rows[i].ConfigHash)
	}
}

// RekeyLegacyHashes keys the hashes of a state written before keys
// existed: refresh draws a key, stores it in private state (to) and
// replaces each deploy item's bare hash in m by its keyed hash, so the bare
// hashes do not stay in state until the next update. It reports whether
// m changed. A state with a key is left alone.
func RekeyLegacyHashes(ctx context.Context, from PrivateGetter, to PrivateSetter, m *InstallationModel, diags *diag.Diagnostics) bool {
	if ReadConfigHashKey(ctx, from, diags) != nil {
		return false
	}
	rows, ok := StateRows(*m)
	if !ok || len(rows) == 0 {
		return false
	}
	k, err := NewConfigHashKey()
	if err != nil {
		return false // the next apply draws one
	}
	k.KeyRows(rows)
	m.SetDeployItems(rows, true, diags)
	k.Store(ctx, to, diags)
	return true
}
