package installation

import (
	"fmt"
	"os"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/provider/shared"
)

// A no-op plan reuses the last apply's rendering instead of rendering the
// tree again when its inputs hash to the render key that apply recorded
// (shared/render_key.go says what the key covers and when it is
// recorded). The plan still reads everything the key covers — the
// configuration's imports (Secret and ConfigMap imports from the host
// cluster too), the blueprint's files, the component versions — so an
// input that changed anywhere renders as before.

// verifyRenderReuse says whether every reused rendering is checked: the
// tree is rendered anyway and the plan fails where rendering again would
// have planned a change. `make test` sets TF_LANDSCAPER_VERIFY_RENDER_REUSE,
// so every acceptance test that plans twice checks the reuse.
func verifyRenderReuse() bool { return os.Getenv("TF_LANDSCAPER_VERIFY_RENDER_REUSE") != "" }

// renderReuse is what a plan needs to reuse a rendering: stored is the
// key private state holds, "" when the state cannot be left as it is
// anyway (leftAsItIs).
type renderReuse struct {
	data   *shared.ProviderData
	key    shared.ConfigHashKey
	stored string
}

// matches reports whether rendering spec, whose root blueprint digest is
// digest, from the snapshot prevBytes read exactly what the apply that
// recorded the key read.
func (r renderReuse) matches(spec engine.RootSpec, digest string, prevBytes []byte) bool {
	if r.stored == "" || r.data == nil {
		return false
	}
	return r.data.RenderInputsOf(spec, digest).Key(r.key, prevBytes) == r.stored
}

// leftAsItIs reports whether, were the deploy items rendered to what the
// state holds, the plan would leave the state as it is: the installation
// succeeded with every item succeeded and error-free, the configuration
// is the state's, and the previews are settled in the plan's mode.
// Drift (an item the refresh marked Drifted) fails it.
func leftAsItIs(plan shared.InstallationModel, state *shared.InstallationModel, mode string) bool {
	if !succeededAs(plan, state) || !previewsKept(plan, *state, mode) {
		return false
	}
	rows, ok := shared.StateRows(*state)
	if !ok {
		return false
	}
	for _, row := range rows {
		if row.Phase != string(api.DeployItemPhaseSucceeded) || row.ErrorText() != "" {
			return false
		}
	}
	return true
}

// checkReuse fails the plan when the tree was rendered although its
// rendering was reused (verifyRenderReuse) and rendering planned a
// change: a render key that covers too little.
func checkReuse(plan shared.InstallationModel, state *shared.InstallationModel, rendered plannedItems, sec *shared.Security, diags *diag.Diagnostics) {
	if !rendered.known || itemsUnchanged(plan, state, rendered) {
		return // not rendered (or pending), or rendered to the state's items
	}
	shared.AddError(diags, sec, "Render Reuse Would Hide A Change", fmt.Errorf(
		"installation %s: the plan reused the last apply's rendering (its render key matched), but rendering again "+
			"plans a change to its deploy items: please report this bug", shared.RootName(plan)))
}

// providerData is the provider's data; nil before Configure ran.
func (d *InstallationData) providerData() *shared.ProviderData {
	if d == nil {
		return nil
	}
	return d.ProviderData
}
