package installation

import (
	"context"
	"errors"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/provider/shared"
)

var _ resource.ResourceWithImportState = (*InstallationResource)(nil)

// ImportState takes "<namespace>/<name>" (or "<name>" in namespace
// default), or the identity { namespace, name } of an import block.
//
// When the provider's host cluster holds a Landscaper Installation of that
// name, it is migrated (installation_migrate.go): the state and snapshot
// are built from what Landscaper deployed, so the configuration that
// `terraform plan -generate-config-out` writes plans empty and nothing is
// written to any cluster.
//
// Otherwise the installation is one this provider deployed before: its
// state is filled from its inventory where the provider block reaches it
// (installation_import_inventory.go). Where it does not, only the ID is
// recorded: the apply that follows finds no snapshot, reads the
// installation's inventory through the configuration's target imports
// (inventory.Recorder.Rebuild) and starts its job from what it records.
func (r *InstallationResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	namespace, name, ok := importedName(ctx, req, &resp.Diagnostics)
	if !ok {
		return
	}
	sec := r.security()
	resp.Diagnostics.Append(sec.SetStateAttribute(ctx, &resp.State, path.Root("id"), namespace+"/"+name)...)
	resp.Diagnostics.Append(sec.SetStateAttribute(ctx, &resp.State, path.Root("name"), name)...)
	resp.Diagnostics.Append(sec.SetStateAttribute(ctx, &resp.State, path.Root("namespace"), namespace)...)
	setInstallationIdentity(ctx, resp.Identity, namespace, name, &resp.Diagnostics)
	if !resp.Diagnostics.HasError() && !r.importFromLandscaper(ctx, namespace, name, resp) {
		r.importFromInventory(ctx, namespace, name, resp) // installation_import_inventory.go
	}
}

// importFromLandscaper migrates the Landscaper Installation
// namespace/name when the host cluster has one, into the state that holds
// only the ID so far; it leaves that state when the host cluster has
// none (or no host cluster is configured). It reports whether it handled
// the import: migrated it, or failed.
func (r *InstallationResource) importFromLandscaper(ctx context.Context, namespace, name string, resp *resource.ImportStateResponse) bool {
	client, err := r.Data.hostDynamic()
	if err != nil {
		shared.AddError(&resp.Diagnostics, r.Data.Security, "Host Cluster Unavailable", fmt.Errorf("the provider's kubernetes block: %w", err))
		return true
	}
	if client == nil {
		return false
	}
	exists, forbidden, err := landscaperInstallation(ctx, client, namespace, name)
	if err != nil {
		shared.AddError(&resp.Diagnostics, r.Data.Security, "Cannot Import", err)
		return true
	}
	if forbidden {
		shared.AddWarning(&resp.Diagnostics, r.Data.Security, "Landscaper Installations Not Readable",
			errors.New("the provider's host cluster credentials may not read Landscaper Installations, so "+namespace+"/"+name+
				" is imported as an installation this provider deployed (from its inventory); "+
				"to migrate from a running Landscaper, allow reading landscaper.gardener.cloud objects"))
	}
	if !exists {
		return false
	}
	var base shared.InstallationModel // every attribute null, with its type
	resp.Diagnostics.Append(resp.State.Get(ctx, &base)...)
	if resp.Diagnostics.HasError() {
		return true
	}
	mig, err := r.Data.migrate(ctx, client, base)
	if err != nil {
		shared.AddError(&resp.Diagnostics, r.Data.Security, "Cannot Import From Landscaper", err)
		return true
	}
	hashKey := shared.EnsureConfigHashKey(ctx, resp.Private, &resp.Diagnostics)
	hashKey.KeyRows(mig.outcome.items)
	state := mig.outcome.toModel(ctx, mig.model, &resp.Diagnostics)
	resp.Diagnostics.Append(r.Data.Security.SetState(ctx, &resp.State, &state)...)
	resp.Diagnostics.Append(r.Data.Security.SetSnapshot(ctx, resp.Private, mig.outcome.snapshot)...)
	hashKey.Store(ctx, resp.Private, &resp.Diagnostics)
	recordInstance(ctx, resp.Private, newInstance(), &resp.Diagnostics)
	for _, id := range mig.differing {
		shared.AddWarning(&resp.Diagnostics, r.Data.Security, "Deploy Item Differs From Landscaper's",
			errors.New("deploy item "+id+" as this provider renders it differs from the configuration Landscaper deployed; it is marked drifted, "+
				"so the next plan shows its update. Compare the DeployItem's spec.config with the rendered item "+
				"(data source landscaper_rendered_installation) before applying."))
	}
	return true
}
