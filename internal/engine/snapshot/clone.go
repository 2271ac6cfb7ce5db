package snapshot

import "slices"

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
	c.Codes = slices.Clone(e.Codes)
	return &c
}
