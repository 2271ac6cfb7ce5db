package snapshot

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
)

// Select resolves a deploy item's target selector: `{import: x}` a single
// target import, `{import: x, index: i}` an element of a targetList import,
// `{import: x, key: k}` an entry of a targetMap import. A nil selector
// selects no target. Errors name the import, never a target's content.
func (t TargetImports) Select(sel *api.TargetSelector) (*api.Target, error) {
	if sel == nil {
		return nil, nil
	}
	name := sel.Import
	if name == "" {
		name = sel.Name
	}
	switch {
	case name == "":
		return nil, fmt.Errorf("target selector names no import")
	case sel.Index != nil:
		list, ok := t.Lists[name]
		if !ok {
			return nil, fmt.Errorf("no targetList import %q", name)
		}
		if *sel.Index < 0 || *sel.Index >= len(list) {
			return nil, fmt.Errorf("index %d out of range of targetList import %q (%d targets)", *sel.Index, name, len(list))
		}
		tg := list[*sel.Index]
		return &tg, nil
	case sel.Key != "":
		m, ok := t.Maps[name]
		if !ok {
			return nil, fmt.Errorf("no targetMap import %q", name)
		}
		tg, ok := m[sel.Key]
		if !ok {
			return nil, fmt.Errorf("no key %q in targetMap import %q", sel.Key, name)
		}
		return &tg, nil
	default:
		tg, ok := t.Single[name]
		if !ok {
			return nil, fmt.Errorf("no target import %q", name)
		}
		return &tg, nil
	}
}

// Hash is a short, stable hash of a JSON-encodable value: map keys are
// sorted by encoding/json and raw JSON is re-encoded, so key order and
// whitespace do not change it.
func Hash(v any) string {
	if raw, ok := v.(json.RawMessage); ok {
		var decoded any
		if len(raw) > 0 && json.Unmarshal(raw, &decoded) == nil {
			v = decoded
		}
	}
	b, err := json.Marshal(v)
	if err != nil {
		b = []byte(fmt.Sprintf("%#v", v))
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:16])
}
