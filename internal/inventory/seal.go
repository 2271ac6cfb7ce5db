package inventory

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/hkdf"
	"crypto/rand"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
)

// A deploy item's configuration is recorded so that landscaper_reconcile
// can apply it again, but it may hold what the configuration rendered
// into it from a secret: a Secret import's value, a minted service-account
// kubeconfig, a target's credentials. The parent Secret is read by whoever
// may read Secrets in its namespace of every target cluster, so a
// configuration that holds a registered secret (the caller's predicate,
// Recorder.SealWhen: the provider's registry of sensitive values) is kept
// sealed: AES-256-GCM under a key derived from the installation's
// reconcile key (which only the Terraform state holds), a random nonce,
// and the item's ID and type as additional data, so that a sealed
// configuration opens only as the item it was sealed for. The reconcile
// action has the key and opens it; an import has none and sees the item
// without a configuration, which the next apply renders again. Other
// configurations stay readable, so an import of an ordinary installation
// keeps them. A job without a key cannot seal: it withholds such a
// configuration instead (RecordedItem.ConfigWithheld) — its record is not
// signed either, so the action would refuse it anyway.
//
// Every entry a record is written from is made by newEntry, the one place
// that seals (TestSeal_EveryEntryThroughNewEntry).

// sealDomain separates the sealing key from any other key derived from
// the reconcile key (the record's MAC uses it directly, sign.go).
const sealDomain = "landscaper-terraform/inventory-config-seal/v1"

// Opening errors: a sealed configuration that does not open with the key
// (another key, another item, altered), and one withheld by a job that
// had no key.
var (
	ErrSealedElsewhere = errors.New("its configuration is sealed with another key or for another deploy item, or was altered")
	ErrWithheld        = errors.New("its configuration holds a secret and was withheld by a job that had no reconcile_key")
)

// sealing is how a parent's entries treat the configurations they record:
// aead seals (nil: no key, such configurations are withheld), holds says
// which hold a secret (nil: none but sticky ones), and sticky are the IDs
// whose configuration was sealed or withheld when the parent was read —
// they stay so, as the job's registry may not know the secret (the
// reconcile action knows no Secret import).
type sealing struct {
	aead   cipher.AEAD
	holds  func(json.RawMessage) bool
	sticky map[string]bool
}

// newSealing is the sealing of a parent written with reconcile key key
// (nil: none) and predicate holds.
func newSealing(key []byte, holds func(json.RawMessage) bool) (*sealing, error) {
	s := &sealing{holds: holds, sticky: map[string]bool{}}
	if key == nil {
		return s, nil
	}
	k, err := hkdf.Key(sha256.New, key, nil, sealDomain, 32)
	if err != nil {
		return nil, err
	}
	block, err := aes.NewCipher(k)
	if err != nil {
		return nil, err
	}
	if s.aead, err = cipher.NewGCM(block); err != nil {
		return nil, err
	}
	return s, nil
}

// sealData is the additional data of item id of type typ: a sealed
// configuration opens only as the item it was sealed for. An ID holds no
// NUL, so the parts cannot run into each other.
func sealData(id, typ string) []byte {
	return []byte(sealDomain + "\x00" + id + "\x00" + typ)
}

// mustSeal says whether the configuration of it (in clear) is sealed.
func (s *sealing) mustSeal(it RecordedItem) bool {
	if s == nil || len(it.Config) == 0 {
		return false
	}
	return s.sticky[it.ID] || (s.holds != nil && s.holds(it.Config))
}

// seal returns it with its configuration sealed (or withheld without a
// key) when it must be; as it is otherwise.
func (s *sealing) seal(it RecordedItem) (RecordedItem, error) {
	if !s.mustSeal(it) {
		return it, nil
	}
	config := it.Config
	it.Config = nil
	if s.aead == nil {
		it.ConfigWithheld = true
		return it, nil
	}
	nonce := make([]byte, s.aead.NonceSize(), s.aead.NonceSize()+len(config)+s.aead.Overhead())
	if _, err := rand.Read(nonce); err != nil {
		return it, fmt.Errorf("sealing its configuration: %w", err)
	}
	it.SealedConfig = s.aead.Seal(nonce, nonce, config, sealData(it.ID, it.Type))
	return it, nil
}

// open returns the configuration of it in clear: its own, or its sealed
// one opened. A configuration that was withheld, or does not open with the
// key (or there is none), is an error; never a panic, whatever the bytes.
func (s *sealing) open(it RecordedItem) (json.RawMessage, error) {
	switch {
	case it.ConfigWithheld:
		return nil, ErrWithheld
	case it.SealedConfig == nil:
		return it.Config, nil
	case s == nil || s.aead == nil || len(it.SealedConfig) < s.aead.NonceSize():
		return nil, ErrSealedElsewhere
	}
	n := s.aead.NonceSize()
	config, err := s.aead.Open(nil, it.SealedConfig[:n], it.SealedConfig[n:], sealData(it.ID, it.Type))
	if err != nil || !json.Valid(config) {
		return nil, ErrSealedElsewhere
	}
	return config, nil
}

// sealed says whether it was recorded with its configuration sealed or
// withheld.
func (it RecordedItem) sealed() bool { return it.SealedConfig != nil || it.ConfigWithheld }

// openRead puts, into the items read from a parent, their sealed
// configurations opened, and marks their IDs sticky. One that does not
// open keeps no configuration — the job renders it again — unless strict
// (the reconcile action, which applies what is recorded): then it fails.
func (s *sealing) openRead(items []RecordedItem, strict bool, namespace, name string) ([]RecordedItem, error) {
	out := make([]RecordedItem, len(items))
	for i, it := range items {
		out[i] = it
		if !it.sealed() {
			continue
		}
		s.sticky[it.ID] = true
		config, err := s.open(it)
		if err != nil && strict {
			return nil, fmt.Errorf("installation inventory %s/%s: deploy item %s: %w. landscaper_reconcile cannot apply it, "+
				"so nothing was applied. The installation's next job records it again: run `terraform apply` with a change "+
				"of the landscaper_installation (any update that runs a job), then invoke the action again", namespace, name, it.ID, err)
		}
		out[i].Config, out[i].SealedConfig, out[i].ConfigWithheld = config, nil, false
	}
	return out, nil
}
