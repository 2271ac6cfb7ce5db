package installation

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine/snapshot"
)

// StandIn gives the exports of a subinstallation that a render-only tree
// does not render (what landscaper-cli's `blueprints render` took from
// installation export templates): its data exports and target exports by
// the export names its blueprint declares. Its siblings that import them
// render instead of waiting for an apply.
type StandIn struct {
	Data    map[string]any
	Targets map[string]api.Target
}

// RenderTreeWith is RenderTree with stand-ins for subinstallations, by
// path (`<root>/<sub>/…`). A stood-in subinstallation and its subtree are
// not rendered; its exports reach its siblings through its template's
// `exports`, as a real one's would. Only for rendering: a job never
// starts from such a tree. A path that names no subinstallation of the
// tree is an error.
func RenderTreeWith(ctx context.Context, spec Spec, prev *snapshot.Installation, standIns map[string]StandIn) (*RenderedTree, error) {
	t := &RenderedTree{standIns: standIns, stoodIn: map[string]bool{}}
	rd, err := t.add(ctx, spec, prev)
	spec.rendering = rd
	t.root = spec
	if err != nil {
		return t, err
	}
	var unused []string
	for p := range standIns {
		if !t.stoodIn[p] {
			unused = append(unused, p)
		}
	}
	if len(unused) > 0 {
		sort.Strings(unused)
		return t, fmt.Errorf("exports are given for %s, which the tree does not render as a subinstallation (paths are `%s/<subinstallation>/…`, "+
			"and a stood-in subinstallation's own children are not rendered)", strings.Join(unused, ", "), spec.Path)
	}
	return t, nil
}

// standInScope is base plus the exports of the stood-in subinstallations
// among subs, published as their templates' `exports` say.
func (t *RenderedTree) standInScope(parent string, base *scope, subs []*subSpec) *scope {
	var published []*snapshot.Installation
	templates := map[string]api.SubinstallationTemplate{}
	for _, s := range subs {
		if in, ok := t.standIns[parent+"/"+s.tmpl.Name]; ok {
			published = append(published, &snapshot.Installation{Name: s.tmpl.Name, Exports: in.Data, TargetExports: in.Targets})
			templates[s.tmpl.Name] = s.tmpl
		}
	}
	if len(published) == 0 {
		return base
	}
	return base.with(published, templates)
}

// waitsFor is the first predecessor of s that is not stood in, -1 when
// every one is (then s renders from the stand-ins' exports).
func (t *RenderedTree) waitsFor(parent string, subs []*subSpec, s *subSpec) int {
	for _, p := range s.preds {
		if _, ok := t.standIns[parent+"/"+subs[p].tmpl.Name]; !ok {
			return p
		}
	}
	return -1
}
