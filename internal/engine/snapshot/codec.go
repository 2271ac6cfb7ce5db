package snapshot

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
)

// Marshal writes s as deterministic JSON: the same tree always gives the
// same bytes (children and items sorted by name, map keys sorted, configs
// compacted), so Terraform sees no spurious private-state changes.
func Marshal(s *Snapshot) ([]byte, error) {
	if s == nil || s.Root == nil {
		return json.Marshal(Snapshot{Version: Version})
	}
	c := s.Clone()
	c.Version = Version
	c.Root.normalize()
	b, err := json.Marshal(c)
	if err == nil {
		b, err = shareTargets(b)
	}
	if err != nil {
		return nil, fmt.Errorf("encoding snapshot: %w", err)
	}
	return b, nil
}

// Unmarshal reads a snapshot of this or an older version, migrating it.
// Empty input is an empty snapshot. A newer version is an error: a
// downgraded provider must not guess.
func Unmarshal(b []byte) (*Snapshot, error) {
	if len(bytes.TrimSpace(b)) == 0 {
		return &Snapshot{Version: Version}, nil
	}
	var head struct {
		Version int `json:"version"`
	}
	if err := decodeExact(b, &head); err != nil {
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
	if b, err = resolveTargets(b); err != nil {
		return nil, fmt.Errorf("decoding snapshot: %w", err)
	}
	var s Snapshot
	if err := decodeExact(b, &s); err != nil {
		return nil, fmt.Errorf("decoding snapshot: %w", err)
	}
	s.Version = Version
	if s.Root != nil {
		if err := s.Root.check(); err != nil {
			return nil, fmt.Errorf("invalid snapshot: %w", err)
		}
	}
	return &s, nil
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

// Clone returns a deep copy.
func (s *Snapshot) Clone() *Snapshot {
	if s == nil {
		return nil
	}
	return &Snapshot{Version: s.Version, Root: s.Root.Clone()}
}

// Clone returns a deep copy of the installation and everything below it.
// Values inside exports are shared: nothing ever mutates them in place.
func (in *Installation) Clone() *Installation {
	if in == nil {
		return nil
	}
	c := *in
	c.LastError = in.LastError.clone()
	c.ImportRefs = append([]string(nil), in.ImportRefs...)
	c.ExportRefs = append([]string(nil), in.ExportRefs...)
	c.Execution = in.Execution.Clone()
	c.Subinstallations = make([]*Installation, len(in.Subinstallations))
	for i, sub := range in.Subinstallations {
		c.Subinstallations[i] = sub.Clone()
	}
	if len(c.Subinstallations) == 0 {
		c.Subinstallations = nil
	}
	return &c
}

// Clone returns a deep copy of the execution and its items.
func (e *Execution) Clone() *Execution {
	if e == nil {
		return nil
	}
	c := *e
	c.LastError = e.LastError.clone()
	c.DeployItems = make([]*DeployItem, len(e.DeployItems))
	for i, it := range e.DeployItems {
		c.DeployItems[i] = it.Clone()
	}
	return &c
}

// Clone returns a copy of the item that shares no mutable field.
func (d *DeployItem) Clone() *DeployItem {
	if d == nil {
		return nil
	}
	c := *d
	c.DependsOn = append([]string(nil), d.DependsOn...)
	if d.AppliedTarget != nil {
		t := *d.AppliedTarget
		c.AppliedTarget = &t
	}
	c.LastError = d.LastError.clone()
	return &c
}

func (e *Error) clone() *Error {
	if e == nil {
		return nil
	}
	c := *e
	return &c
}

func (in *Installation) normalize() {
	sort.Slice(in.Subinstallations, func(i, j int) bool {
		return in.Subinstallations[i].Name < in.Subinstallations[j].Name
	})
	sort.Strings(in.ImportRefs)
	sort.Strings(in.ExportRefs)
	for _, sub := range in.Subinstallations {
		sub.normalize()
	}
	if in.Execution == nil {
		return
	}
	items := in.Execution.DeployItems
	sort.Slice(items, func(i, j int) bool { return items[i].Name < items[j].Name })
	for _, it := range items {
		it.Config = compact(it.Config)
		it.ProviderStatus = compact(it.ProviderStatus)
	}
	for k, v := range in.State {
		in.State[k] = compact(v)
	}
}

func compact(raw json.RawMessage) json.RawMessage {
	if len(raw) == 0 {
		return raw
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, raw); err != nil {
		return raw
	}
	return buf.Bytes()
}
