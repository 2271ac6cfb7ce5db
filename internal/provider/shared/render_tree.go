package shared

import (
	"context"
	"errors"
	"sort"
	"strings"
	"sync/atomic"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint/template"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine"
)

// RenderTree renders the tree at plan time for the resource's ModifyPlan
// and the landscaper_rendered_installation data source alike: blueprint
// warnings, a render error on the attribute whose input it names (the
// blueprint when it names none), and one row per rendered deploy item
// (planned phase Succeeded, config included), sorted; sec masks the
// secrets of the warnings and the error. The tree is nil when rendering
// failed. With an engine, each item's configuration is also checked by
// its deployer (unknown types, invalid configs); without one (provider not
// configured) only rendered.
func RenderTree(ctx context.Context, sec *Security, eng *engine.Engine, spec engine.RootSpec, prev *engine.Snapshot, diags *diag.Diagnostics) (*engine.RenderedTree, []DeployItemRow) {
	renders.Add(1)
	render := engine.Render
	if eng != nil {
		render = eng.Render
	}
	tree, err := render(ctx, spec, prev)
	for i, w := range tree.Warnings {
		// A warning may name a key a template built from an import.
		tree.Warnings[i] = sec.Scrub(w)
		AddWarning(diags, sec, "Blueprint Warning", AttrMsg(path.Root("blueprint"), tree.Warnings[i]))
	}
	// Spiff reports the function's error as text from its child process:
	// the book itself says a token was asked for.
	if err != nil && (errors.Is(err, template.ErrTokenAtApply) || template.TokensPending(ctx)) {
		AddWarning(diags, sec, "Deploy Items Known After Apply", AttrMsg(path.Root("blueprint"),
			"A deploy execution calls getServiceAccountKubeconfig, whose token is minted during apply and reused "+
				"from then on while it has more than half of its lifetime left; until then the deploy items are known after apply."))
		return nil, nil
	}
	if err != nil {
		AddError(diags, sec, "Invalid Installation", AttrErr(path.Root("blueprint"), err))
		return nil, nil
	}
	rows := make([]DeployItemRow, 0, len(tree.Items))
	for _, it := range tree.Items {
		rows = append(rows, DeployItemRow{Installation: it.Installation, Name: it.Name, Type: it.Type,
			Target: it.Target.Expression(), DependsOn: OrEmptyList(it.DependsOn),
			Phase: string(api.DeployItemPhaseSucceeded), ConfigHash: it.ConfigHash, Config: string(it.Config)})
	}
	SortRows(rows)
	return tree, rows
}

// renders counts RenderTree's calls.
var renders atomic.Int64

// Renders is how many trees this process has rendered at plan so far: a
// no-op plan whose inputs are the last apply's renders none
// (render_key.go), which the provider's tests hold it to.
func Renders() int64 { return renders.Load() }

// DeployItemRow is one deploy item, as the engine and the rendered
// installation data source know it; state keeps part of it
// (setDeployItems).
type DeployItemRow struct {
	Installation string
	Name         string
	Type         string
	Target       string
	DependsOn    []string
	Phase        string
	LastError    string
	ConfigHash   string
	// Config is the rendered configuration, shown (sensitive) only by
	// the landscaper_rendered_installation data source.
	Config string
}

// Path is the item's key in deploy_items: its installation path and name.
func (r DeployItemRow) Path() string {
	return r.Installation + "/" + r.Name
}

// ErrorText is the item's entry in deploy_item_errors; "" for an item
// that succeeded.
func (r DeployItemRow) ErrorText() string {
	switch {
	case r.Phase == string(api.DeployItemPhaseSucceeded) && r.LastError == "":
		return ""
	case r.LastError == "":
		return r.Phase
	}
	return r.Phase + ": " + r.LastError
}

// SortRows orders deploy items by installation path and name, so plan
// and state list them alike whatever order the engine ran them in.
func SortRows(rows []DeployItemRow) {
	sort.Slice(rows, func(i, j int) bool {
		if rows[i].Installation != rows[j].Installation {
			return rows[i].Installation < rows[j].Installation
		}
		return rows[i].Name < rows[j].Name
	})
}

func OrEmptyList(l []string) []string {
	if l == nil {
		return []string{}
	}
	return l
}

// StateRows decodes deploy_items and deploy_item_errors into rows (path,
// phase, error and hash; type, target and dependencies are not recorded),
// sorted; false when deploy_items is null, unknown or unreadable.
func StateRows(m InstallationModel) ([]DeployItemRow, bool) {
	if m.DeployItems.IsNull() || m.DeployItems.IsUnknown() || m.DeployItemErrors.IsUnknown() {
		return nil, false
	}
	failed := m.DeployItemErrors.Elements() // empty when null
	rows := make([]DeployItemRow, 0, len(m.DeployItems.Elements()))
	for p, v := range m.DeployItems.Elements() {
		hash, ok := v.(types.String)
		cut := strings.LastIndexByte(p, '/')
		if !ok || cut < 0 {
			return nil, false
		}
		row := DeployItemRow{Installation: p[:cut], Name: p[cut+1:], ConfigHash: hash.ValueString(),
			Phase: string(api.DeployItemPhaseSucceeded)}
		if e, ok := failed[p].(types.String); ok {
			row.Phase, row.LastError, _ = strings.Cut(e.ValueString(), ": ")
		}
		rows = append(rows, row)
	}
	SortRows(rows)
	return rows, true
}
