package preview

import (
	"fmt"
	"maps"
	"strings"
	"sync"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/fingerprint"
)

// Mark is what is recorded of one masked value: a keyed fingerprint of
// it and the version the plan shows.
type Mark struct {
	// Sum is the first 128 bits of HMAC-SHA256 under the installation's
	// key of the value's location and the value; "" when no key was
	// known (a create's plan).
	Sum string `json:"s,omitempty"`
	// Version counts the different values the location has had, from 1.
	Version int `json:"v"`
}

// Marks gives masked values their markers, "(sensitive value vN)": N
// stays while the value stays and grows by one when it changes. The
// marker shows nothing of the value, not even a hash, so a plan cannot be
// used to test guesses of a short secret; whether a value changed is
// decided by comparing keyed fingerprints with the ones recorded at the
// last apply (Table, kept in private state). A version rather than a
// keyed hash in the text, because a create's plan has no key yet (the
// key is drawn at the first apply) and must still show its objects, and
// the apply must store exactly what the plan showed.
//
// Marks is safe for concurrent use.
type Marks struct {
	key   []byte
	prior map[string]Mark
	// writeOnly are the write-only forms: a value holding one is
	// fingerprinted with the marker in its place (package fingerprint),
	// so its recorded mark does not depend on it.
	writeOnly fingerprint.Forms

	mu   sync.Mutex
	next map[string]Mark
}

// NewMarks returns marks under key (nil: none yet) that continue prior,
// the table recorded at the last apply (nil: none), for values whose
// write-only forms are wo (nil: none). A value that differs only in a
// write-only value keeps its version: Terraform's write-only arguments
// change nothing planned (data_wo_version does).
func NewMarks(key []byte, prior map[string]Mark, wo fingerprint.Forms) *Marks {
	return &Marks{key: key, prior: prior, writeOnly: wo, next: map[string]Mark{}}
}

// Marker returns the marker of value at loc and records its mark. A value
// without a recorded mark starts at version 1; one whose fingerprint
// differs from the recorded one, or cannot be compared (no key now or
// then), gets the next version: an unknown value never hides a change.
func (m *Marks) Marker(loc, value string) string {
	sum := ""
	if m.key != nil {
		sum = fingerprint.Keyed(m.key, m.writeOnly, loc, value)
	}
	mark := Mark{Sum: sum, Version: 1}
	if p, ok := m.prior[loc]; ok {
		mark.Version = p.Version
		if p.Sum == "" || sum == "" || p.Sum != sum {
			mark.Version++
		}
	}
	m.mu.Lock()
	m.next[loc] = mark
	m.mu.Unlock()
	return marker(mark.Version)
}

// markerPrefix begins every marker; MasksNothing looks for it.
const markerPrefix = "(sensitive value v"

func marker(version int) string { return fmt.Sprintf("%s%d)", markerPrefix, version) }

// Keep carries the recorded marks of an item over unchanged, for an item
// whose objects the plan takes from the state instead of rendering them.
func (m *Marks) Keep(itemID string) {
	prefix := ItemPrefix(itemID)
	m.mu.Lock()
	defer m.mu.Unlock()
	for loc, mark := range m.prior {
		if strings.HasPrefix(loc, prefix) {
			m.next[loc] = mark
		}
	}
}

// Table is the marks of everything masked since NewMarks (and what Keep
// carried over): what to record for the next plan.
func (m *Marks) Table() map[string]Mark {
	m.mu.Lock()
	defer m.mu.Unlock()
	return maps.Clone(m.next)
}
