package installation

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint/component"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/provider/shared"
)

// The apply deploys what the plan showed (issue 34). Terraform plans a
// saved plan's resources again at the start of the apply and stops with
// "Provider produced inconsistent final plan" when that second plan
// differs; it gives the second plan the private data of the plan's
// refreshed state, never the plan's own. So refresh resolves what deploy
// items fetch from outside the configuration (remote Helm charts) and
// records the digests in private state; every plan previews with exactly
// those (a source that moved fails the plan with a PinMovedError naming
// the item, the source and both digests, and saying to plan again), puts
// what its previews fetched into the planned private state, and the apply
// deploys with those pins (instance.Runner.Pins). Component versions the
// same way: refresh resolves their tags (componentPinsKey), plans read
// exactly those digests (from the registry or the content-addressed
// cache), and the apply reads component_digests, which the plans showed.

// sourcePinsKey is the private-state key of the pins, by item ID.
const sourcePinsKey = "source_pins"

// componentPinsKey is the private-state key of the component digests
// refresh resolved, by "<component name>:<version>".
const componentPinsKey = "component_pins"

// readPins reads the recorded pins; nil when none are recorded or they
// cannot be read (then previews fetch what is served).
func readPins(ctx context.Context, p shared.PrivateGetter) map[string]deployer.Pins {
	var pins map[string]deployer.Pins
	readPrivateJSON(ctx, p, sourcePinsKey, &pins)
	return pins
}

// recordPins records pins in private state; nothing when there are none
// and none were recorded.
func recordPins(ctx context.Context, p shared.PrivateSetter, pins map[string]deployer.Pins, diags *diag.Diagnostics) {
	if pins == nil {
		pins = map[string]deployer.Pins{}
	}
	storePrivateJSON(ctx, p, sourcePinsKey, pins, diags)
}

// resolvePins is what the items snap recorded fetch now, read at refresh
// with the credentials of the installation's Landscaper Context; nil
// when the state shows no previews (plan_diff = "off": a plan then
// fetches nothing).
func (d *InstallationData) resolvePins(ctx context.Context, m shared.InstallationModel, snap *engine.Snapshot) map[string]deployer.Pins {
	if d.planDiffMode(m) == shared.PlanDiffOff || snap.Empty() {
		return nil
	}
	return d.previewRunner(ctx, m).Resolve(ctx, snap)
}

// resolveComponents is what the tags of the installation's component
// versions point at now, read at refresh; nil when it names none from a
// registry or they cannot be read (the plan then resolves them itself).
func (d *InstallationData) resolveComponents(ctx context.Context, m shared.InstallationModel) map[string]string {
	if m.ComponentDescriptor.IsNull() || m.ComponentDescriptor.IsUnknown() {
		return nil
	}
	notes := &shared.RegistryNotes{}
	_, comp, _ := d.loadBlueprintNoting(ctx, m, component.Pins{}, notes)
	if comp == nil || notes.Any() {
		return nil // the plan falls back to the state's digests, as without refresh
	}
	return comp.Digests()
}

// planComponentPins are the digests a plan reads component versions at:
// exactly those refresh resolved when it recorded any, so that the
// apply's own plan reads what the plan read; otherwise the tags are
// resolved again, with the state's digests standing in for an
// unreachable registry.
func planComponentPins(ctx context.Context, prior shared.PrivateGetter, state *shared.InstallationModel) component.Pins {
	var refreshed map[string]string
	if readPrivateJSON(ctx, prior, componentPinsKey, &refreshed) && len(refreshed) > 0 {
		return component.Pins{Digests: refreshed, Strict: true}
	}
	return shared.PinsOf(shared.RecordedDigests(state), false)
}
