package provider

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
)

var _ resource.ResourceWithImportState = (*installationResource)(nil)

// ImportState takes "<namespace>/<name>" (or "<name>" in namespace
// default).
//
// When the provider's host cluster holds a Landscaper Installation of that
// name, it is migrated (installation_migrate.go): the state and snapshot
// are built from what Landscaper deployed, so the configuration that
// `terraform plan -generate-config-out` writes plans empty and nothing is
// written to any cluster.
//
// Otherwise the installation is one this provider deployed before, and
// only the ID is recorded: the clusters to read are named by the
// configuration's target imports, which an import does not see, so the
// apply that follows finds no snapshot, reads the installation's
// inventory through those targets (inventory.Recorder.Load) and starts its
// job from what it records.
func (r *installationResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	namespace, name, found := strings.Cut(req.ID, "/")
	if !found {
		namespace, name = "default", req.ID
	}
	if namespace == "" || name == "" || strings.Contains(name, "/") {
		resp.Diagnostics.AddError("Invalid Import ID",
			"Import a landscaper_installation by \"<namespace>/<name>\" (or \"<name>\" in namespace default), the name and namespace of its configuration; got "+strconv.Quote(req.ID)+".")
		return
	}
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), namespace+"/"+name)...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("name"), name)...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("namespace"), namespace)...)
	if !resp.Diagnostics.HasError() {
		r.importFromLandscaper(ctx, namespace, name, resp)
	}
}

// importFromLandscaper migrates the Landscaper Installation
// namespace/name when the host cluster has one, into the state that holds
// only the ID so far; it leaves that state when the host cluster has
// none (or no host cluster is configured).
func (r *installationResource) importFromLandscaper(ctx context.Context, namespace, name string, resp *resource.ImportStateResponse) {
	client, err := r.data.hostDynamic()
	if err != nil {
		addError(&resp.Diagnostics, r.data.security, "Host Cluster Unavailable", fmt.Errorf("the provider's kubernetes block: %w", err))
		return
	}
	if client == nil {
		return
	}
	exists, forbidden, err := landscaperInstallation(ctx, client, namespace, name)
	if err != nil {
		addError(&resp.Diagnostics, r.data.security, "Cannot Import", err)
		return
	}
	if forbidden {
		resp.Diagnostics.AddWarning("Landscaper Installations Not Readable",
			"the provider's host cluster credentials may not read Landscaper Installations, so "+namespace+"/"+name+
				" is imported as an installation this provider deployed (the next apply reads its inventory); "+
				"to migrate from a running Landscaper, allow reading landscaper.gardener.cloud objects")
	}
	if !exists {
		return
	}
	var base installationModel // every attribute null, with its type
	resp.Diagnostics.Append(resp.State.Get(ctx, &base)...)
	if resp.Diagnostics.HasError() {
		return
	}
	mig, err := r.data.migrate(ctx, client, base)
	if err != nil {
		addError(&resp.Diagnostics, r.data.security, "Cannot Import From Landscaper", err)
		return
	}
	hashKey := ensureConfigHashKey(ctx, resp.Private, &resp.Diagnostics)
	hashKey.keyRows(mig.outcome.items)
	state := mig.outcome.toModel(ctx, mig.model, &resp.Diagnostics)
	resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
	resp.Diagnostics.Append(setSnapshot(ctx, resp.Private, mig.outcome.snapshot)...)
	hashKey.store(ctx, resp.Private, &resp.Diagnostics)
	recordInstance(ctx, resp.Private, newInstance(), &resp.Diagnostics)
	for _, id := range mig.differing {
		resp.Diagnostics.AddWarning("Deploy Item Differs From Landscaper's",
			"deploy item "+id+" as this provider renders it differs from the configuration Landscaper deployed; it is marked drifted, "+
				"so the next plan shows its update. Compare the DeployItem's spec.config with the rendered item "+
				"(data source landscaper_rendered_installation) before applying.")
	}
}
