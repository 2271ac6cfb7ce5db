package component

import (
	"encoding/json"
	"fmt"
	"strings"
)

// Overwrites are Landscaper's ComponentVersionOverwrites, which a Context
// names: each substitutes another version (name, repository context) for
// the component versions its source matches, wherever a component version
// is looked up (the installation's own component and every component
// reference, to any depth).
type Overwrites []Overwrite

// Overwrite is one substitution. Empty fields of Source match anything;
// empty fields of Substitution keep the looked-up value.
type Overwrite struct {
	Source       OverwriteRef `json:"source"`
	Substitution OverwriteRef `json:"substitution"`
}

// OverwriteRef is a (partial) component version reference.
type OverwriteRef struct {
	RepositoryContext *RepositorySpec `json:"repositoryContext,omitempty"`
	ComponentName     string          `json:"componentName,omitempty"`
	Version           string          `json:"version,omitempty"`
}

// ParseOverwrites reads the `overwrites` of a ComponentVersionOverwrites
// object. Errors never quote a value.
func ParseOverwrites(raw json.RawMessage) (Overwrites, error) {
	var obj struct {
		Overwrites Overwrites `json:"overwrites"`
	}
	if err := json.Unmarshal(raw, &obj); err != nil {
		return nil, fmt.Errorf("not a ComponentVersionOverwrites object: %w", err)
	}
	for i, o := range obj.Overwrites {
		for _, rc := range []*RepositorySpec{o.Source.RepositoryContext, o.Substitution.RepositoryContext} {
			if rc == nil {
				continue
			}
			if err := rc.Validate(); err != nil {
				return nil, fmt.Errorf("overwrites[%d]: %w", i, err)
			}
		}
	}
	return obj.Overwrites, nil
}

// Apply returns ref with the substitutions of every overwrite whose
// source matches it, as Landscaper merges them: in order, each adding the
// fields it substitutes unless one of them is already substituted (then
// it is skipped as a whole), until name, version and repository context
// all are. The bool says whether any source matched.
func (o Overwrites) Apply(ref VersionRef) (VersionRef, bool) {
	var merged OverwriteRef
	matched := false
	for _, x := range o {
		if !x.Source.matches(ref) {
			continue
		}
		matched = true
		s := x.Substitution
		if (s.ComponentName != "" && merged.ComponentName != "") || (s.Version != "" && merged.Version != "") ||
			(s.RepositoryContext != nil && merged.RepositoryContext != nil) {
			continue
		}
		if s.ComponentName != "" {
			merged.ComponentName = s.ComponentName
		}
		if s.Version != "" {
			merged.Version = s.Version
		}
		if s.RepositoryContext != nil {
			merged.RepositoryContext = s.RepositoryContext
		}
		if merged.ComponentName != "" && merged.Version != "" && merged.RepositoryContext != nil {
			break
		}
	}
	if merged.ComponentName != "" {
		ref.Name = merged.ComponentName
	}
	if merged.Version != "" {
		ref.Version = merged.Version
	}
	if merged.RepositoryContext != nil {
		ref.Context = *merged.RepositoryContext
	}
	return ref, matched
}

func (s OverwriteRef) matches(ref VersionRef) bool {
	return (s.ComponentName == "" || s.ComponentName == ref.Name) &&
		(s.Version == "" || s.Version == ref.Version) &&
		(s.RepositoryContext == nil || s.RepositoryContext.same(ref.Context))
}

// same compares repository contexts as the same location: type spellings
// and the default name mapping are equal, a trailing slash does not count.
func (rc RepositorySpec) same(other RepositorySpec) bool {
	norm := func(r RepositorySpec) RepositorySpec {
		r.Type = strings.TrimSuffix(r.Type, "/v1")
		if r.Type == RepositoryTypeOCMOCIRegistry {
			r.Type = RepositoryTypeOCIRegistry
		}
		r.BaseURL = strings.TrimSuffix(r.BaseURL, "/")
		if r.ComponentNameMapping == "" {
			r.ComponentNameMapping = MappingURLPath
		}
		return r
	}
	return norm(rc) == norm(other)
}
