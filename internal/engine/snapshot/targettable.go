package snapshot

import (
	"encoding/json"
	"fmt"
)

// The resolved target imports of a tree repeat the same few targets (the
// root's cluster is usually passed to every subinstallation, and every
// deploy item records the one it was applied with). On the wire each
// distinct target is written once, in the top-level "targetTable" by
// content hash, and installations' "targets" and deploy items'
// "appliedTarget" hold the hashes. This keeps private state small and
// each credential in it once.

const targetTableKey = "targetTable"

// shareTargets rewrites an encoded snapshot so that installations refer to
// the target table.
func shareTargets(doc []byte) ([]byte, error) {
	var generic map[string]any
	if err := decodeExact(doc, &generic); err != nil {
		return nil, err
	}
	table := map[string]any{}
	walkTargetImports(generic["root"], func(t any) any {
		h := Hash(t)
		table[h] = t
		return h
	})
	if len(table) > 0 {
		generic[targetTableKey] = table
	}
	return json.Marshal(generic)
}

// resolveTargets undoes shareTargets; documents without a table pass
// unchanged.
func resolveTargets(doc []byte) ([]byte, error) {
	var generic map[string]any
	if err := decodeExact(doc, &generic); err != nil {
		return nil, err
	}
	raw, ok := generic[targetTableKey]
	if !ok {
		return doc, nil
	}
	table, ok := raw.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("%s is not an object", targetTableKey)
	}
	var missing error
	walkTargetImports(generic["root"], func(ref any) any {
		h, _ := ref.(string)
		t, ok := table[h]
		if !ok && missing == nil {
			missing = fmt.Errorf("target %q is not in the %s", h, targetTableKey)
		}
		return t
	})
	if missing != nil {
		return nil, missing
	}
	delete(generic, targetTableKey)
	return json.Marshal(generic)
}

// walkTargetImports replaces every target in the installations'
// "targets" (single, lists, maps) and the deploy items' "appliedTarget"
// by swap(target).
func walkTargetImports(node any, swap func(any) any) {
	in, ok := node.(map[string]any)
	if !ok {
		return
	}
	if targets, ok := in["targets"].(map[string]any); ok {
		if single, ok := targets["single"].(map[string]any); ok {
			for k, t := range single {
				single[k] = swap(t)
			}
		}
		if lists, ok := targets["lists"].(map[string]any); ok {
			for _, l := range lists {
				if list, ok := l.([]any); ok {
					for i, t := range list {
						list[i] = swap(t)
					}
				}
			}
		}
		if maps, ok := targets["maps"].(map[string]any); ok {
			for _, m := range maps {
				if entries, ok := m.(map[string]any); ok {
					for k, t := range entries {
						entries[k] = swap(t)
					}
				}
			}
		}
	}
	if exec, ok := in["execution"].(map[string]any); ok {
		items, _ := exec["deployItems"].([]any)
		for _, raw := range items {
			if item, ok := raw.(map[string]any); ok && item["appliedTarget"] != nil {
				item["appliedTarget"] = swap(item["appliedTarget"])
			}
		}
	}
	if subs, ok := in["subinstallations"].([]any); ok {
		for _, sub := range subs {
			walkTargetImports(sub, swap)
		}
	}
}
