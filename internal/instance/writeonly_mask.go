package instance

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine/snapshot"
)

// MaskWriteOnly replaces, in what snap stores of every installation of
// the tree (exports, execution state, deploy item configurations and
// exports, the last errors of installations, executions and items), each occurrence of the write-only forms (writeOnlyStrings)
// with snapshot.WriteOnlyMask. Configuration hashes are left: they are
// fingerprints already made without the write-only forms (package
// fingerprint, RootSpec.WriteOnly), equal to those of the masked
// configurations. Provider statuses are left as deployers wrote them:
// they record what exists (names, UIDs, revisions), which deployers read
// back, and their hashes are fingerprints too (deployer.Item.WriteOnly).
func MaskWriteOnly(snap *engine.Snapshot, forms []string) {
	if len(forms) == 0 || snap.Empty() {
		return
	}
	m := masker{forms: forms, mask: snapshot.WriteOnlyMask}
	for _, in := range snap.Installations() {
		in.Exports = m.object(in.Exports)
		for k, raw := range in.State {
			in.State[k] = m.raw(raw)
		}
		// Errors quote values: a schema violation, an API server's field
		// error (issue 32 item 7).
		m.error(in.LastError)
		if in.Execution == nil {
			continue
		}
		m.error(in.Execution.LastError)
		for _, it := range in.Execution.DeployItems {
			it.Config = m.raw(it.Config)
			it.Exports = m.object(it.Exports)
			m.error(it.LastError)
		}
	}
}

// MaskOutcomes replaces, in the exports and execution state of every
// installation of snap's tree and in its deploy items' exports and
// configurations, each of forms with mask: what the inventory keeps for an
// import is read by whoever may read Secrets in its namespace, so a Secret
// import's value a blueprint exported, kept in its state or rendered into
// an item must not be there (Security.MaskKept). What is kept holds an
// item's configuration only when write-only values were masked in it
// (withoutCredentials); the parent records the configuration itself,
// sealed when it holds a secret (inventory/seal.go).
func MaskOutcomes(snap *engine.Snapshot, forms []string, mask string) {
	if len(forms) == 0 || snap.Empty() {
		return
	}
	m := masker{forms: forms, mask: mask}
	for _, in := range snap.Installations() {
		in.Exports = m.object(in.Exports)
		for k, raw := range in.State {
			in.State[k] = m.raw(raw)
		}
		if in.Execution == nil {
			continue
		}
		for _, it := range in.Execution.DeployItems {
			it.Config = m.raw(it.Config)
			it.Exports = m.object(it.Exports)
		}
	}
}

// masker masks its forms (longest first) with mask.
type masker struct {
	forms []string
	mask  string
}

func (m masker) string(s string) string {
	for _, f := range m.forms {
		if strings.Contains(s, f) {
			s = strings.ReplaceAll(s, f, m.mask)
		}
	}
	return s
}

// error masks the texts of e in place; nil is left.
func (m masker) error(e *snapshot.Error) {
	if e == nil {
		return
	}
	e.Message, e.Reason = m.string(e.Message), m.string(e.Reason)
}

// object masks every string inside o; nil stays nil.
func (m masker) object(o map[string]any) map[string]any {
	if o == nil {
		return nil
	}
	out, _ := m.value(o).(map[string]any) // value keeps a map a map
	return out
}

// value masks every string inside v (keys too).
func (m masker) value(v any) any {
	switch x := v.(type) {
	case string:
		return m.string(x)
	case map[string]any:
		if x == nil {
			return x
		}
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[m.string(k)] = m.value(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = m.value(e)
		}
		return out
	}
	return v
}

// raw masks a JSON document; it is re-encoded only when something was
// masked (the forms are searched in its text first, escaped as JSON
// strings are), and kept as it is when it is no JSON.
func (m masker) raw(raw json.RawMessage) json.RawMessage {
	if len(raw) == 0 || !m.occursIn(raw) {
		return raw
	}
	var v any
	if err := api.DecodeExact(raw, &v, api.AllowTrailing); err != nil {
		return raw
	}
	out, err := json.Marshal(m.value(v))
	if err != nil {
		return raw
	}
	return out
}

// occursIn reports whether a form may be inside the JSON text raw.
func (m masker) occursIn(raw []byte) bool {
	for _, f := range m.forms {
		enc, _ := json.Marshal(f)
		if bytes.Contains(raw, enc[1:len(enc)-1]) {
			return true
		}
	}
	return false
}

// ScrubErrors replaces the texts of the last errors of every installation,
// execution and deploy item of snap's tree by scrub's result: errors are
// texts whoever reads the inventory or deploy_item_errors sees, so every
// secret is masked there, not only write-only values.
func ScrubErrors(snap *engine.Snapshot, scrub func(string) string) {
	if snap.Empty() || scrub == nil {
		return
	}
	m := func(e *snapshot.Error) {
		if e != nil {
			e.Message, e.Reason = scrub(e.Message), scrub(e.Reason)
		}
	}
	for _, in := range snap.Installations() {
		m(in.LastError)
		if in.Execution == nil {
			continue
		}
		m(in.Execution.LastError)
		for _, it := range in.Execution.DeployItems {
			m(it.LastError)
		}
	}
}
