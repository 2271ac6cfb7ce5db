package installation

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/instance"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/provider/shared"
)

// An import of an installation this provider deployed fills the state from
// its inventory (instance.Runner.Imported): the attributes, the outcome and
// the engine snapshot the last job kept there, with each deploy item's
// configuration, provider status and cluster as the parents record them.
// The configuration's target imports, through which applies find the
// inventory, are not known to an import; it looks in the clusters the
// provider block reaches without a configuration: those of
// target_kubeconfigs. Found there, the plan of a configuration that renders
// what the inventory records is empty, and a destroy straight after the
// import removes everything recorded.

// importFromInventory fills resp, which holds the ID, name and namespace
// of an installation this provider deployed, from its inventory; without
// one where it looked, it leaves the state and warns what the next apply
// does.
func (r *InstallationResource) importFromInventory(ctx context.Context, namespace, name string, resp *resource.ImportStateResponse) {
	var base shared.InstallationModel // every attribute null, with its type
	resp.Diagnostics.Append(resp.State.Get(ctx, &base)...)
	if resp.Diagnostics.HasError() || r.Data == nil {
		return
	}
	hashKey := shared.EnsureConfigHashKey(ctx, resp.Private, &resp.Diagnostics)
	fill, searched := r.Data.fromInventory(ctx, base, hashKey, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	if fill == nil {
		where := "(the provider block names no cluster in target_kubeconfigs to look in)"
		if len(searched) > 0 {
			where = "in the clusters of target_kubeconfigs (" + strings.Join(searched, ", ") + ")"
		}
		shared.AddWarning(&resp.Diagnostics, r.Data.Security, "Installation Inventory Not Found", errors.New(
			"No inventory of installation "+namespace+"/"+name+" was found "+where+", so only its ID is imported. The next apply reads "+
				"the inventory through the configuration's target imports and starts from what it records (the plan shows "+
				"an update); a destroy before that apply fails and deletes nothing. To import everything the inventory "+
				"records, give the provider block the kubeconfig of a cluster the installation deployed to in target_kubeconfigs."))
		return
	}
	resp.Diagnostics.Append(r.Data.Security.SetState(ctx, &resp.State, &fill.state)...)
	resp.Diagnostics.Append(r.Data.Security.SetSnapshot(ctx, resp.Private, fill.snapshot)...)
	resp.Diagnostics.Append(r.Data.Security.MarkFilledFromCluster(ctx, resp.Private, fill.own)...)
	hashKey.Store(ctx, resp.Private, &resp.Diagnostics)
	recordInstance(ctx, resp.Private, newInstance(), &resp.Diagnostics)
	importNotes(r.Data.Security, fill.imported, resp)
}

// inventoryFill is the state an installation's inventory fills.
type inventoryFill struct {
	state    shared.InstallationModel
	snapshot []byte
	imported instance.Imported
	// own are the targets the refresh and destroy after the import may
	// reach the clusters of target_kubeconfigs through (shared.Provenance.Own).
	own []api.Target
}

// fromInventory is the state of the installation base names (only its
// ID, name and namespace set) as its inventory in the clusters of
// target_kubeconfigs records it, config hashes keyed with hashKey; nil
// when none of them (searched, by name) records it. The import and the
// list resource (installation_list.go) share it.
func (d *InstallationData) fromInventory(ctx context.Context, base shared.InstallationModel, hashKey shared.ConfigHashKey, diags *diag.Diagnostics) (fill *inventoryFill, searched []string) {
	targets := d.ProviderTargets()
	for _, t := range targets {
		searched = append(searched, t.Metadata.Name)
	}
	if len(targets) == 0 {
		return nil, nil
	}
	imp, err := d.Instances(ctx).Imported(ctx, shared.RootName(base), targets)
	if err != nil {
		shared.AddError(diags, d.Security, "Cannot Read The Installation Inventory", err)
		return nil, searched
	}
	if imp.Snapshot == nil {
		return nil, searched
	}
	m := base
	if imp.Kept {
		var k keptResource
		if err := json.Unmarshal(imp.Resource, &k); err == nil {
			kept, err := k.decode(ctx)
			if err != nil {
				shared.AddWarning(diags, d.Security, "Attributes Not Imported", err)
			}
			m = importedModel(base, kept)
			imp.Withheld = append(imp.Withheld, k.Withheld...)
		}
	}
	var dropped []string
	if m, dropped = providerTargetsFoundIn(m, imp.FoundIn); len(dropped) > 0 {
		shared.AddWarning(diags, d.Security, "Provider Targets Not Imported", fmt.Errorf(
			"the inventory names provider_targets entries whose clusters do not hold the installation's records (%s): a record "+
				"found in one cluster does not choose another cluster's target_kubeconfigs entry, so they are left out of the state "+
				"(and of a generated configuration); add them to provider_targets if they are yours", strings.Join(dropped, ", ")))
	}
	// What an inventory holds is untrusted, whoever signed it (an import
	// reads without the key): nothing of it is trusted before an apply.
	d.Security.TrustSnapshot(m, imp.Snapshot, shared.Provenance{})
	d.Security.LearnSnapshot(imp.Snapshot, sensitiveExportNames(ctx, m.SensitiveExports))
	out, err := outcomeOf(imp.Snapshot, nil)
	if err != nil {
		shared.AddError(diags, d.Security, "Cannot Import", err)
		return nil, searched
	}
	scrubOutcome(d.Security, out)
	out.blueprintDigest, out.components = m.BlueprintDigest.ValueString(), m.ComponentDigests
	hashKey.KeyRows(out.items)
	return &inventoryFill{state: out.toModel(ctx, m, diags), snapshot: out.snapshot, imported: imp, own: ownTargets(targets, imp)}, searched
}

// providerTargetsFoundIn is m with provider_targets restricted to the
// target_kubeconfigs entries whose clusters hold the installation's
// records (foundIn), and the import names it dropped. What an inventory
// keeps is a claim: a record planted in a dev cluster naming
// `{ cluster = "prod" }` would otherwise write the prod entry into the
// state an import fills and into the configuration
// `terraform query -generate-config-out` writes, and its next apply would
// deploy through the prod kubeconfig (issue 32, suspicion c). An entry of
// a cluster that holds records is one the installation deployed to.
func providerTargetsFoundIn(m shared.InstallationModel, foundIn []string) (shared.InstallationModel, []string) {
	if m.ProviderTargets.IsNull() || m.ProviderTargets.IsUnknown() {
		return m, nil
	}
	found := map[string]bool{}
	for _, name := range foundIn {
		found[name] = true
	}
	kept := map[string]attr.Value{}
	var dropped []string
	for importName, v := range m.ProviderTargets.Elements() {
		entry, ok := v.(types.String)
		if ok && found[entry.ValueString()] {
			kept[importName] = v
			continue
		}
		dropped = append(dropped, importName+" = "+v.String())
	}
	if len(dropped) == 0 {
		return m, nil
	}
	sort.Strings(dropped)
	m.ProviderTargets = types.MapValueMust(types.StringType, kept)
	if len(kept) == 0 {
		m.ProviderTargets = types.MapNull(types.StringType)
	}
	return m, dropped
}

// ownTargets are the targets an import lets the refresh and destroy after
// it take a target_kubeconfigs kubeconfig through: those it searched with
// (made here, with references of their own), and a recorded root target
// naming a target_kubeconfigs entry whose cluster holds the installation's
// records — its deploy items went there. A recorded target naming another
// entry's cluster (a record planted in a dev cluster to reach prod)
// borrows nothing.
func ownTargets(searched []api.Target, imp instance.Imported) []api.Target {
	own := append([]api.Target(nil), searched...)
	if imp.Snapshot.Empty() {
		return own
	}
	foundIn := map[string]bool{}
	for _, name := range imp.FoundIn {
		foundIn[name] = true
	}
	shared.EachTarget(imp.Snapshot.Root.Targets, func(t api.Target) {
		if t.Metadata.Annotations[api.KubeconfigFromProviderAnnotation] != "" && foundIn[t.Metadata.Name] {
			own = append(own, t)
		}
	})
	return own
}

// importedModel is the imported state's configuration: what was kept,
// under the ID, name and namespace imported.
func importedModel(base, kept shared.InstallationModel) shared.InstallationModel {
	kept.ID, kept.Name, kept.Namespace = base.ID, base.Name, base.Namespace
	return kept
}

// importNotes warns about what the import could not fill.
func importNotes(sec *shared.Security, imp instance.Imported, resp *resource.ImportStateResponse) {
	if !imp.Kept {
		resp.Diagnostics.AddWarning("Installation Imported From Its Deploy Items Only",
			"The installation's inventory records its deploy items but not its configuration (it was written by an earlier "+
				"version of the provider): the state holds what is deployed, every item to be applied again, and the next "+
				"apply starts from it.")
	}
	if len(imp.Withheld) > 0 {
		shared.AddWarning(&resp.Diagnostics, sec, "Attributes Holding Credentials Not Imported", errors.New("The inventory in the target clusters never holds credentials, so these were not imported: "+strings.Join(imp.Withheld, ", ")+
			". The next plan sets them from the configuration and its apply runs a job that deploys what the configuration renders "+
			"(target imports that take their kubeconfig from the provider block, kubeconfig_from_provider, hold none and are imported)."))
	}
	if len(imp.Missing) > 0 {
		shared.AddWarning(&resp.Diagnostics, sec, "Deploy Items Not Found", errors.New("These deploy items were deployed to clusters the import did not search (not in target_kubeconfigs): "+
			strings.Join(imp.Missing, ", ")+". The state lists them, but a destroy may not reach them; the next apply settles them."))
	}
}
