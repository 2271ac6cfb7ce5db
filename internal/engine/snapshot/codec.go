package snapshot

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
)

// Marshal writes s as deterministic JSON: the same tree always gives the
// same bytes (children and items sorted by name, map keys sorted, configs
// compacted), so Terraform sees no spurious private-state changes. It
// reads s and changes nothing in it.
func Marshal(s *Snapshot) ([]byte, error) {
	doc := wireDoc{Version: Version}
	if s != nil && s.Root != nil {
		var table targetTable
		doc.Root = table.installation(s.Root)
		doc.TargetTable = table.byKey
	}
	// encoding/json sorts map keys and compacts raw JSON (configs,
	// provider statuses, state) as it writes them.
	b, err := json.Marshal(doc)
	if err != nil {
		return nil, fmt.Errorf("encoding snapshot: %w", err)
	}
	return b, nil
}

// Unmarshal reads a snapshot of this or an older version, migrating it.
// Empty input is an empty snapshot. A newer version is an error: a
// downgraded provider must not guess. It and the migrations decode with
// api.DecodeExact, which keeps every number as a json.Number: configs,
// provider statuses, exports and execution state may hold integers above
// 2^53 (IDs, sizes, versions), which float64 rounds, and json.Number
// marshals back to the same digits. Consumers of decoded exports handle
// json.Number (the provider's dynamic values, the template executors,
// schema validation).
func Unmarshal(b []byte) (*Snapshot, error) {
	if len(bytes.TrimSpace(b)) == 0 {
		return &Snapshot{Version: Version}, nil
	}
	// A document of this version decodes in one pass; any other (older,
	// newer, none, invalid) is looked at by its version first.
	var doc wireDoc
	if err := api.DecodeExact(b, &doc); err != nil || doc.Version != Version {
		if b, err = upgrade(b); err != nil {
			return nil, err
		}
		doc = wireDoc{}
		if err := api.DecodeExact(b, &doc); err != nil {
			return nil, fmt.Errorf("decoding snapshot: %w", err)
		}
	}
	s := &Snapshot{Version: Version}
	if doc.Root == nil {
		return s, nil
	}
	var err error
	if s.Root, err = doc.Root.installation(doc.TargetTable); err != nil {
		return nil, fmt.Errorf("decoding snapshot: %w", err)
	}
	if err := s.Root.check(); err != nil {
		return nil, fmt.Errorf("invalid snapshot: %w", err)
	}
	return s, nil
}

// upgrade migrates a document of an older version to this one, or says
// why it cannot be read.
func upgrade(b []byte) ([]byte, error) {
	var head struct {
		Version int `json:"version"`
	}
	if err := api.DecodeExact(b, &head); err != nil {
		return nil, fmt.Errorf("decoding snapshot: %w", err)
	}
	switch {
	case head.Version > Version:
		return nil, fmt.Errorf("snapshot version %d is newer than this provider understands (%d)", head.Version, Version)
	case head.Version < 1:
		return nil, fmt.Errorf("snapshot has no valid version (%d)", head.Version)
	}
	var err error
	for v := head.Version; v < Version; v++ {
		if b, err = migrations[v](b); err != nil {
			return nil, fmt.Errorf("migrating snapshot from version %d: %w", v, err)
		}
	}
	return b, nil
}

// installation is in as written: its refs sorted, its subinstallations
// and deploy items sorted by name, its targets in the table.
func (tt *targetTable) installation(in *Installation) *wireInstallation {
	c := *in // sorted refs without changing the caller's tree
	c.ImportRefs, c.ExportRefs = sorted(in.ImportRefs), sorted(in.ExportRefs)
	w := &wireInstallation{Installation: &c, Targets: tt.refs(in.Targets)}
	if in.Execution != nil {
		w.Execution = &wireExecution{Execution: in.Execution}
		items := byName(in.Execution.DeployItems, func(it *DeployItem) string { return it.Name })
		w.Execution.DeployItems = make([]*wireItem, len(items))
		for i, it := range items {
			if it == nil {
				continue
			}
			w.Execution.DeployItems[i] = &wireItem{DeployItem: it}
			if it.AppliedTarget != nil {
				ref := tt.ref(it.AppliedTarget)
				w.Execution.DeployItems[i].AppliedTarget = &ref
			}
		}
	}
	subs := byName(in.Subinstallations, func(sub *Installation) string { return sub.Name })
	for _, sub := range subs {
		var ws *wireInstallation
		if sub != nil {
			ws = tt.installation(sub)
		}
		w.Subinstallations = append(w.Subinstallations, ws)
	}
	return w
}

func sorted(s []string) []string {
	if slices.IsSorted(s) {
		return s
	}
	return slices.Sorted(slices.Values(s))
}

// byName is a sorted copy of objects; nil entries (never written by the
// engine) sort first.
func byName[T any](objects []*T, name func(*T) string) []*T {
	out := slices.Clone(objects)
	slices.SortStableFunc(out, func(a, b *T) int {
		switch {
		case a == nil && b == nil:
			return 0
		case a == nil:
			return -1
		case b == nil:
			return 1
		}
		return strings.Compare(name(a), name(b))
	})
	return out
}

// installation is the tree below w with its targets resolved from table.
// Null entries stay nil for check to reject.
func (w *wireInstallation) installation(table map[string]api.Target) (*Installation, error) {
	in := w.Installation
	if in == nil { // an object with none of Installation's own fields
		in = &Installation{}
	}
	var err error
	if in.Targets, err = resolveAll(w.Targets, table); err != nil {
		return nil, err
	}
	in.Execution = nil
	if e := w.Execution; e != nil {
		in.Execution = e.Execution
		if in.Execution == nil {
			in.Execution = &Execution{}
		}
		in.Execution.DeployItems = nil
		if e.DeployItems != nil {
			in.Execution.DeployItems = make([]*DeployItem, len(e.DeployItems))
		}
		for i, wi := range e.DeployItems {
			if wi == nil {
				continue
			}
			it := wi.DeployItem
			if it == nil {
				it = &DeployItem{}
			}
			it.AppliedTarget = nil
			if wi.AppliedTarget != nil {
				t, err := resolve(*wi.AppliedTarget, table)
				if err != nil {
					return nil, err
				}
				it.AppliedTarget = &t
			}
			in.Execution.DeployItems[i] = it
		}
	}
	in.Subinstallations = nil
	if w.Subinstallations != nil {
		in.Subinstallations = make([]*Installation, len(w.Subinstallations))
	}
	for i, sub := range w.Subinstallations {
		if sub == nil {
			continue
		}
		if in.Subinstallations[i], err = sub.installation(table); err != nil {
			return nil, err
		}
	}
	return in, nil
}

// check rejects what the engine never writes and could not walk safely:
// null entries, unnamed objects and duplicate names among siblings.
func (in *Installation) check() error {
	if in.Name == "" || in.Path == "" {
		return fmt.Errorf("installation %q has no name or path", in.Path)
	}
	if in.Execution != nil {
		seen := map[string]bool{}
		for i, it := range in.Execution.DeployItems {
			switch {
			case it == nil || it.Name == "":
				return fmt.Errorf("installation %s: deploy item #%d has no name", in.Path, i)
			case seen[it.Name]:
				return fmt.Errorf("installation %s: duplicate deploy item %q", in.Path, it.Name)
			}
			seen[it.Name] = true
		}
	}
	seen := map[string]bool{}
	for i, sub := range in.Subinstallations {
		if sub == nil {
			return fmt.Errorf("installation %s: subinstallation #%d is null", in.Path, i)
		}
		if seen[sub.Name] {
			return fmt.Errorf("installation %s: duplicate subinstallation %q", in.Path, sub.Name)
		}
		seen[sub.Name] = true
		if err := sub.check(); err != nil {
			return err
		}
	}
	return nil
}
