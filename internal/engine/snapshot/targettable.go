package snapshot

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
)

// The resolved target imports of a tree repeat the same few targets (the
// root's cluster is usually passed to every subinstallation, and every
// deploy item records the one it was applied with). On the wire each
// distinct target is written once, in the top-level "targetTable" by
// content hash, and installations' "targets" and deploy items'
// "appliedTarget" hold the hashes. This keeps private state small and
// each credential in it once.
//
// The wire types below are the snapshot types with those fields replaced
// by references, so that Marshal and Unmarshal each take one pass of
// encoding/json over the document (and none over a generic tree). The
// embedded type's field of the same JSON name is shadowed: encoding/json
// uses the least nested one.

// wireDoc is a snapshot as written.
type wireDoc struct {
	Version     int                   `json:"version"`
	Root        *wireInstallation     `json:"root,omitempty"`
	TargetTable map[string]api.Target `json:"targetTable,omitempty"`
}

type wireInstallation struct {
	*Installation
	Targets          wireTargets         `json:"targets,omitzero"`
	Execution        *wireExecution      `json:"execution,omitempty"`
	Subinstallations []*wireInstallation `json:"subinstallations,omitempty"`
}

type wireTargets struct {
	Single map[string]targetRef            `json:"single,omitempty"`
	Lists  map[string][]targetRef          `json:"lists,omitempty"`
	Maps   map[string]map[string]targetRef `json:"maps,omitempty"`
}

type wireExecution struct {
	*Execution
	DeployItems []*wireItem `json:"deployItems,omitempty"`
}

type wireItem struct {
	*DeployItem
	AppliedTarget *targetRef `json:"appliedTarget,omitempty"`
}

// targetRef is a target on the wire: its key in the target table, or, in
// documents written before the table existed, the target itself.
type targetRef struct {
	key    string
	inline *api.Target
}

func (r targetRef) MarshalJSON() ([]byte, error) { return json.Marshal(r.key) }

func (r *targetRef) UnmarshalJSON(b []byte) error {
	switch {
	case bytes.Equal(b, []byte("null")):
		r.inline = &api.Target{} // what decoding null into a target gives
		return nil
	case len(b) > 0 && b[0] == '"':
		return json.Unmarshal(b, &r.key)
	}
	var t api.Target
	if err := json.Unmarshal(b, &t); err != nil {
		return err
	}
	r.inline = &t
	return nil
}

// targetTable collects the distinct targets of a tree being written.
// Equal targets are found by comparing content, so each distinct target
// is encoded and hashed once, not once per deploy item.
type targetTable struct {
	byKey map[string]api.Target
	seen  map[targetShape][]string // keys of the targets of a shape
}

// targetShape narrows the candidates a target may equal; equal compares
// the rest.
type targetShape struct {
	apiVersion, kind, name, namespace, typ string
	configLen                              int
}

func shapeOf(t *api.Target) targetShape {
	return targetShape{t.APIVersion, t.Kind, t.Metadata.Name, t.Metadata.Namespace, t.Spec.Type, len(t.Spec.Config)}
}

func sameTarget(a, b *api.Target) bool {
	return shapeOf(a) == shapeOf(b) && bytes.Equal(a.Spec.Config, b.Spec.Config) &&
		maps.Equal(a.Metadata.Labels, b.Metadata.Labels) && maps.Equal(a.Metadata.Annotations, b.Metadata.Annotations)
}

// ref adds t to the table and returns its reference.
func (tt *targetTable) ref(t *api.Target) targetRef {
	shape := shapeOf(t)
	for _, key := range tt.seen[shape] {
		if known := tt.byKey[key]; sameTarget(&known, t) {
			return targetRef{key: key}
		}
	}
	if tt.byKey == nil {
		tt.byKey, tt.seen = map[string]api.Target{}, map[targetShape][]string{}
	}
	key := Hash(t)
	tt.byKey[key] = *t
	tt.seen[shape] = append(tt.seen[shape], key)
	return targetRef{key: key}
}

func (tt *targetTable) refs(imports TargetImports) wireTargets {
	var w wireTargets
	if len(imports.Single) > 0 {
		w.Single = make(map[string]targetRef, len(imports.Single))
		for name, t := range imports.Single {
			w.Single[name] = tt.ref(&t)
		}
	}
	if len(imports.Lists) > 0 {
		w.Lists = make(map[string][]targetRef, len(imports.Lists))
		for name, list := range imports.Lists {
			refs := make([]targetRef, len(list))
			for i := range list {
				refs[i] = tt.ref(&list[i])
			}
			w.Lists[name] = refs
		}
	}
	if len(imports.Maps) > 0 {
		w.Maps = make(map[string]map[string]targetRef, len(imports.Maps))
		for name, m := range imports.Maps {
			refs := make(map[string]targetRef, len(m))
			for k, t := range m {
				refs[k] = tt.ref(&t)
			}
			w.Maps[name] = refs
		}
	}
	return w
}

// resolve returns the target r refers to in table.
func resolve(r targetRef, table map[string]api.Target) (api.Target, error) {
	if r.inline != nil {
		return *r.inline, nil
	}
	t, ok := table[r.key]
	if !ok {
		return api.Target{}, fmt.Errorf("target %q is not in the targetTable", r.key)
	}
	return t, nil
}

func resolveAll(w wireTargets, table map[string]api.Target) (TargetImports, error) {
	var out TargetImports
	var err error
	if w.Single != nil {
		out.Single = make(map[string]api.Target, len(w.Single))
		for name, r := range w.Single {
			if out.Single[name], err = resolve(r, table); err != nil {
				return out, err
			}
		}
	}
	if w.Lists != nil {
		out.Lists = make(map[string][]api.Target, len(w.Lists))
		for name, refs := range w.Lists {
			list := make([]api.Target, len(refs))
			for i, r := range refs {
				if list[i], err = resolve(r, table); err != nil {
					return out, err
				}
			}
			out.Lists[name] = list
		}
	}
	if w.Maps != nil {
		out.Maps = make(map[string]map[string]api.Target, len(w.Maps))
		for name, refs := range w.Maps {
			m := make(map[string]api.Target, len(refs))
			for k, r := range refs {
				if m[k], err = resolve(r, table); err != nil {
					return out, err
				}
			}
			out.Maps[name] = m
		}
	}
	return out, nil
}
