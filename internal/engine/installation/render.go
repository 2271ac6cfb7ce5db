package installation

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/dag"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine/snapshot"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/failure"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/fingerprint"
)

// rendering is what an installation's Init computes before anything runs:
// the imports after importDataMappings, the rendered blueprint and the
// subinstallations in data-flow order with their blueprints loaded. The
// plan (RenderTree) and the job (Init) compute it with the one function
// render; a job started from a RenderedTree reuses the plan's renderings,
// so no installation is rendered twice in one apply.
type rendering struct {
	imports  blueprint.Imports
	rendered *blueprint.Rendered
	subs     []*subSpec
	// writeOnly are the spec's write-only forms.
	writeOnly fingerprint.Forms
}

// importsHash is the fingerprint of the imports after
// importDataMappings, which the job records
// (snapshot.Installation.ImportsHash) and the plan compares with it
// (RenderedTree.ImportsHash): a changed write-only value alone does not
// change it.
func (rd *rendering) importsHash() string { return fingerprint.Value(rd.imports, rd.writeOnly) }

// subSpec is one rendered subinstallation before it runs.
type subSpec struct {
	tmpl                   api.SubinstallationTemplate
	blueprint              *blueprint.Blueprint
	preds                  []int // indices of the siblings it imports from
	importRefs, exportRefs []string
	// rendering is the subinstallation's own rendering when the plan could
	// compute it (no predecessor); nil: its Init renders it.
	rendering *rendering
}

// render maps the imports, renders the blueprint with the execution state
// of the previous job, orders the subinstallations by data flow (a cycle
// is an error here, before anything of them is deployed) and loads their
// blueprints. Its errors say which input is at fault (blueprint.InputOf);
// a subinstallation's inputs are what its parent's blueprint wired, so
// every error of a subinstallation is the blueprint's.
func render(ctx context.Context, spec Spec, imports blueprint.Imports, state map[string]json.RawMessage) (*rendering, error) {
	rd, err := renderOne(ctx, spec, imports, state)
	if err != nil && spec.Source != nil {
		err = blueprint.NewInputError(blueprint.InputBlueprint, "", err)
	}
	return rd, err
}

func renderOne(ctx context.Context, spec Spec, imports blueprint.Imports, state map[string]json.RawMessage) (*rendering, error) {
	imports, err := mapImports(ctx, spec.Blueprint.Limits(), imports, spec.ImportDataMappings)
	if err != nil {
		return nil, blueprint.NewInputError(blueprint.InputImportDataMapping, "", fmt.Errorf("importDataMappings: %w", err))
	}
	rendered, err := spec.Blueprint.Render(ctx, blueprint.RenderInput{Imports: imports, Component: spec.Component, State: state})
	if err != nil {
		return nil, fmt.Errorf("rendering blueprint: %w", err)
	}
	templates := rendered.Subinstallations
	importRefsOf, exportRefsOf := map[string][]string{}, map[string][]string{}
	names := make([]string, len(templates))
	for i, t := range templates {
		names[i] = t.Name
		importRefsOf[t.Name], exportRefsOf[t.Name] = importRefs(t.Imports), exportRefs(t.Exports)
	}
	nodes, err := siblingGraph(importRefsOf, exportRefsOf, names)
	if err != nil {
		return nil, failure.NewTerminal("InvalidSubinstallations", err)
	}
	index := make(map[string]int, len(templates))
	subs := make([]*subSpec, len(templates))
	for i, t := range templates {
		bp, err := spec.Blueprint.Subinstallation(t, spec.Component)
		if err != nil {
			return nil, failure.NewTerminal("InvalidBlueprint", fmt.Errorf("subinstallation %q: %w", t.Name, err))
		}
		subs[i] = &subSpec{tmpl: t, blueprint: bp, importRefs: importRefsOf[t.Name], exportRefs: exportRefsOf[t.Name]}
		index[t.Name] = i
	}
	for i, n := range nodes {
		for _, d := range n.DependsOn {
			subs[i].preds = append(subs[i].preds, index[d])
		}
	}
	return &rendering{imports: imports, rendered: rendered, subs: subs, writeOnly: spec.WriteOnly}, nil
}

// spec is the Spec of the subinstallation in its parent's job; imports
// resolves its imports in the parent's scope.
func (s *subSpec) spec(parent Spec, imports func() (blueprint.Imports, error)) Spec {
	return Spec{
		Path: parent.Path + "/" + s.tmpl.Name, Name: s.tmpl.Name,
		Blueprint: s.blueprint, Component: s.blueprint.Component,
		ImportDataMappings: s.tmpl.ImportDataMappings, ExportDataMappings: s.tmpl.ExportDataMappings,
		Imports:    imports,
		ImportRefs: s.importRefs, ExportRefs: s.exportRefs,
		Source:    &s.tmpl.Blueprint,
		WriteOnly: parent.WriteOnly,
		rendering: s.rendering,
	}
}

// RenderedTree is the tree's deploy items as far as they can be rendered
// without a cluster and without running anything.
type RenderedTree struct {
	Items []RenderedItem
	// Installations are every installation of the tree, parents before
	// children, the pending ones (Unknown) included.
	Installations []RenderedInstallation
	// Unknown are installations whose imports come from exports that
	// exist only after apply; their deploy items are not in Items.
	Unknown []UnknownInstallation
	// Warnings are the blueprints' warnings (unknown fields …).
	Warnings []string

	root Spec
	// standIns are RenderTreeWith's, stoodIn the paths it used.
	standIns map[string]StandIn
	stoodIn  map[string]bool
}

// RenderedItem is one deploy item of a RenderedTree. Items come per
// installation, parents before children, and within one installation in
// dependency order (rendered order among independent items).
type RenderedItem struct {
	ID           string
	Installation string
	Name         string
	Type         string
	// Execution is the deploy execution that rendered the item, Source the
	// blueprint file of its template ("" for an inline one).
	Execution  string
	Source     string
	Target     *api.TargetSelector
	DependsOn  []string
	ConfigHash string
	// Config is the rendered configuration; it may hold secrets.
	Config json.RawMessage
}

// RenderedInstallation is one installation of a RenderedTree.
type RenderedInstallation struct {
	Path string
	// ImportRefs and ExportRefs are the names it reads from and writes to
	// its parent's scope (none for the root): the data flowing between
	// siblings.
	ImportRefs, ExportRefs []string
	// Pending says why its deploy items are known only after apply (as
	// in Unknown); "" when it rendered.
	Pending string
	// StoodIn: its exports were given (RenderTreeWith), it was not rendered.
	StoodIn bool

	files   fs.FS
	targets snapshot.TargetImports
	// replayable: its blueprint's executions and its data mappings render
	// the same from the same inputs (RenderedTree.Replayable).
	replayable bool
}

// Files are the files of the blueprint that rendered the installation's
// deploy items; nil for a pending installation.
func (in RenderedInstallation) Files() fs.FS { return in.files }

// TargetsByName are the installation's target imports by their Target's
// name, as deploy items' calls get them (deployer.Item.Targets), and the
// names two different imports share.
func (in RenderedInstallation) TargetsByName() (map[string]*api.Target, []string) {
	return in.targets.ByName()
}

// Target resolves a deploy item's target selector in the installation's
// target imports as the next apply will (nil for no selector).
func (in RenderedInstallation) Target(sel *api.TargetSelector) (*api.Target, error) {
	return in.targets.Select(sel)
}

// Installation returns the tree's installation at path.
func (t *RenderedTree) Installation(path string) (RenderedInstallation, bool) {
	for _, in := range t.Installations {
		if in.Path == path {
			return in, true
		}
	}
	return RenderedInstallation{}, false
}

// UnknownInstallation says why an installation cannot be rendered yet.
type UnknownInstallation struct {
	Path   string
	Reason string
}

// RenderTree renders spec and its subtree purely. Render-time errors
// (duplicate names, unknown dependsOn, cycles between deploy items or
// siblings, template errors) are returned joined, each naming its
// installation; what rendered is in the tree either way. Ending ctx stops
// the templates and mappings.
func RenderTree(ctx context.Context, spec Spec, prev *snapshot.Installation) (*RenderedTree, error) {
	t := &RenderedTree{stoodIn: map[string]bool{}}
	rd, err := t.add(ctx, spec, prev)
	spec.rendering = rd
	t.root = spec
	return t, err
}

// ImportsHash is the root's imports hash as its job will record it
// (snapshot.Installation.ImportsHash); "" when the root did not render.
// Imports the configuration does not show (Secret and ConfigMap imports)
// changed when it differs from the recorded one.
func (t *RenderedTree) ImportsHash() string {
	if t.root.rendering == nil {
		return ""
	}
	return t.root.rendering.importsHash()
}

// Replayable says whether rendering the tree again from the same inputs
// gives the same deploy items: every installation rendered (none pending,
// none stood in for), each one's executions and data mappings are
// replayable (blueprint.Replayable), and nothing warned — a plan that
// reuses the rendering shows no warning, so a tree that warns renders at
// every plan.
func (t *RenderedTree) Replayable() bool {
	if t == nil || len(t.Unknown) > 0 || len(t.standIns) > 0 || len(t.Warnings) > 0 {
		return false
	}
	for _, in := range t.Installations {
		if !in.replayable {
			return false
		}
	}
	return len(t.Installations) > 0
}

// Root is the root's Spec carrying the renderings: Run started with it
// renders only the installations the tree could not.
func (t *RenderedTree) Root() Spec { return t.root }

// RootTargets are the root installation's target imports.
func (t *RenderedTree) RootTargets() snapshot.TargetImports {
	if t == nil {
		return snapshot.TargetImports{}
	}
	for _, in := range t.Installations {
		if in.Path == t.root.Path {
			return in.targets
		}
	}
	return snapshot.TargetImports{}
}

func (t *RenderedTree) add(ctx context.Context, spec Spec, prev *snapshot.Installation) (*rendering, error) {
	imports, err := spec.Imports()
	if err != nil {
		return nil, fmt.Errorf("installation %s: %w", spec.Path, err)
	}
	var state map[string]json.RawMessage
	if prev != nil {
		state = prev.State
	}
	t.Warnings = append(t.Warnings, prefixed(spec.Path, spec.Blueprint.Warnings)...)
	rd, err := render(ctx, spec, imports, state)
	if err != nil {
		return nil, fmt.Errorf("installation %s: %w", spec.Path, err)
	}
	t.Warnings = append(t.Warnings, prefixed(spec.Path, rd.rendered.Warnings)...)
	t.Installations = append(t.Installations, RenderedInstallation{Path: spec.Path, ImportRefs: spec.ImportRefs,
		ExportRefs: spec.ExportRefs, files: spec.Blueprint.Files,
		targets:    snapshot.TargetImports{Single: rd.imports.Targets, Lists: rd.imports.TargetLists, Maps: rd.imports.TargetMaps},
		replayable: spec.Blueprint.Replayable() && blueprint.MappingsReplayable(spec.ImportDataMappings) && blueprint.MappingsReplayable(spec.ExportDataMappings)})
	items := rd.rendered.DeployItems
	nodes := make([]dag.Node, len(items))
	for i, it := range items {
		nodes[i] = dag.Node{Name: it.Name, DependsOn: it.DependsOn}
	}
	for _, i := range dag.Order(nodes) {
		it := items[i]
		t.Items = append(t.Items, RenderedItem{ID: spec.Path + "/" + it.Name, Installation: spec.Path, Name: it.Name,
			Type: it.Type, Execution: it.Execution, Source: it.Source, Target: it.Target, DependsOn: it.DependsOn, ConfigHash: fingerprint.Encoded(it.Config, spec.WriteOnly), Config: it.Config})
	}
	prevSubs := map[string]*snapshot.Installation{}
	if prev != nil {
		for _, sub := range prev.Subinstallations {
			prevSubs[sub.Name] = sub
		}
	}
	base := newScope(rd.imports)
	withStandIns := t.standInScope(spec.Path, base, rd.subs)
	var errs []error
	for _, s := range rd.subs {
		subPath := spec.Path + "/" + s.tmpl.Name
		if _, ok := t.standIns[subPath]; ok {
			t.stoodIn[subPath] = true
			t.Installations = append(t.Installations, RenderedInstallation{Path: subPath, ImportRefs: s.importRefs,
				ExportRefs: s.exportRefs, StoodIn: true})
			continue
		}
		scope := base
		if len(s.preds) > 0 {
			if p := t.waitsFor(spec.Path, rd.subs, s); p >= 0 {
				u := UnknownInstallation{Path: subPath,
					Reason: fmt.Sprintf("imports exports of subinstallation %q, known only after it is applied", rd.subs[p].tmpl.Name)}
				t.Unknown = append(t.Unknown, u)
				t.Installations = append(t.Installations, RenderedInstallation{Path: u.Path, ImportRefs: s.importRefs,
					ExportRefs: s.exportRefs, Pending: u.Reason})
				continue
			}
			scope = withStandIns
		}
		tmpl := s.tmpl
		sub := s.spec(spec, func() (blueprint.Imports, error) { return scope.importsFor(tmpl.Name, tmpl.Imports) })
		rendering, err := t.add(ctx, sub, prevSubs[tmpl.Name])
		if err != nil {
			errs = append(errs, err)
		}
		if len(s.preds) == 0 {
			// A job reuses only what it would render the same way: never
			// what the stand-ins' exports made renderable.
			s.rendering = rendering
		}
	}
	return rd, errors.Join(errs...)
}

func prefixed(path string, msgs []string) []string {
	out := make([]string, len(msgs))
	for i, m := range msgs {
		out[i] = path + ": " + m
	}
	return out
}
