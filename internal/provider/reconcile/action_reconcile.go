// Package reconcile is the action landscaper_reconcile: one more job of
// an installation, as Landscaper's reconcile annotation asks for.
package reconcile

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/action/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/instance"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/provider/shared"
)

var _ action.ActionWithConfigure = (*reconcileAction)(nil)

// NewReconcileAction returns the landscaper_reconcile action.
func NewReconcileAction() action.Action { return &reconcileAction{} }

// reconcileAction is Landscaper's `landscaper.gardener.cloud/operation:
// reconcile` as a Terraform action: a new job on an installation whose
// configuration did not change. An action gets only its own
// configuration, never a resource's state, so the job starts from what
// the installation's inventory records in its target clusters
// (instance.Runner.Reconcile), runs as the resource instance that owns it
// and leaves the inventory current; the resource's next refresh compares
// what is deployed with its state.
type reconcileAction struct {
	data *shared.ProviderData
}

type reconcileModel struct {
	Installation types.String `tfsdk:"installation"`
	Targets      types.List   `tfsdk:"targets"`
	ReconcileKey types.String `tfsdk:"reconcile_key"`
	Timeout      types.String `tfsdk:"timeout"`

	// The installation's provider_targets (installation_provider_targets.go).
	ProviderTargets          types.Map `tfsdk:"provider_targets"`
	ProviderTargetReferences types.Map `tfsdk:"provider_target_references"`
}

func (a *reconcileAction) Metadata(_ context.Context, req action.MetadataRequest, resp *action.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_reconcile"
}

func (a *reconcileAction) Configure(_ context.Context, req action.ConfigureRequest, resp *action.ConfigureResponse) {
	a.data = shared.ProviderDataFrom(req.ProviderData, &resp.Diagnostics)
}

func (a *reconcileAction) Schema(_ context.Context, _ action.SchemaRequest, resp *action.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Runs a new job on an existing `landscaper_installation` without a configuration change: Landscaper's " +
			"`landscaper.gardener.cloud/operation: reconcile` (Terraform ≥ 1.14; OpenTofu has no actions). Every deploy item the " +
			"installation's inventory records in its target clusters is applied again with the configuration recorded there, so " +
			"objects deleted or changed by hand come back and Helm releases are upgraded in place — \"redeploy now\" without " +
			"`taint`, which deletes first. Nothing is rendered again (change the configuration for that). The job runs as the " +
			"installation's resource instance and its inventory records what it leaves, with the job's outcome: the installation's " +
			"next refresh reads it, so after a failed job its `phase` is `Failed` and `deploy_item_errors` names what failed " +
			"and why, and the next plan proposes the update that retries; after a successful one the plan is empty. What " +
			"the job could not put back also shows as drift. Progress shows as the job runs. Deploy items whose deployer " +
			"reads blueprint files (a Helm chart from the blueprint's own files) get none and fail: apply the installation " +
			"instead. The job applies only inventory records the installation signed with its `reconcile_key`, so whoever " +
			"may write Secrets in a target cluster cannot make it apply anything else.",
		Attributes: map[string]schema.Attribute{
			"installation": schema.StringAttribute{Required: true,
				MarkdownDescription: "The installation's `id` (`<namespace>/<name>`), e.g. `landscaper_installation.app.id`."},
			"targets": schema.ListAttribute{Optional: true, ElementType: types.StringType,
				MarkdownDescription: "The Target objects (JSON) of the clusters the installation deploys to, where its inventory " +
					"is: its target imports, e.g. `[landscaper_target.cluster.target]` (sensitive there, so plans do not show them). " +
					"An installation whose target imports are `provider_targets` gives those two attributes instead (or as well)."},
			"provider_targets": schema.MapAttribute{Optional: true, ElementType: types.StringType,
				MarkdownDescription: "The installation's `provider_targets` (`landscaper_installation.<name>.provider_targets`)."},
			"provider_target_references": schema.MapAttribute{Optional: true, ElementType: types.StringType,
				MarkdownDescription: "The installation's `provider_target_references` (`landscaper_installation.<name>." +
					"provider_target_references`, sensitive there), with `provider_targets`."},
			"reconcile_key": schema.StringAttribute{Optional: true,
				MarkdownDescription: "The installation's `reconcile_key` (`landscaper_installation.<name>.reconcile_key`, " +
					"sensitive there, so plans do not show it). Required in practice: the job applies only inventory records " +
					"signed with it and refuses, naming the Secret and changing nothing, a record that is unsigned or " +
					"signed with another key (altered in the cluster, written by another workspace, or by a provider " +
					"build that did not sign records: the installation's next update signs its records again)."},
			"timeout": schema.StringAttribute{Optional: true,
				MarkdownDescription: "Bound of the whole job, e.g. `10m`. Default `30m`."},
		},
	}
}

func (a *reconcileAction) Invoke(ctx context.Context, req action.InvokeRequest, resp *action.InvokeResponse) {
	if a.data == nil {
		resp.Diagnostics.AddError("Provider Not Configured", "landscaper_reconcile needs a configured provider.")
		return
	}
	var m reconcileModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	root, targets, key, timeout, err := m.parse(ctx)
	if err != nil {
		shared.AddError(&resp.Diagnostics, a.data.Security, "Invalid Reconcile", err)
		return
	}
	for _, t := range targets {
		// The targets come from the configuration, as imports.targets do.
		a.data.Security.TrustTarget(t, true)
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	send := func(msg string) {
		if resp.SendProgress != nil {
			resp.SendProgress(action.InvokeProgressEvent{Message: a.data.Security.Scrub(msg)})
		}
	}
	runner := a.data.Instances(ctx)
	runner.Log = &progressLogger{next: runner.Log, send: send}
	start := time.Now()
	snap, err := runner.Reconcile(ctx, root, targets, key)
	if err != nil {
		shared.AddError(&resp.Diagnostics, a.data.Security, "Reconcile Failed", err)
		return
	}
	send(fmt.Sprintf("installation %s reconciled in %s: job %s, phase %s", root, time.Since(start).Round(time.Millisecond),
		snap.Root.JobID, snap.RootPhase()))
}

// parse returns the root installation's path, the targets, the
// reconcile key and the timeout.
func (m reconcileModel) parse(ctx context.Context) (root string, targets []api.Target, key []byte, timeout time.Duration, err error) {
	ns, name, ok := strings.Cut(m.Installation.ValueString(), "/")
	if !ok || ns == "" || name == "" || strings.Contains(name, "/") {
		return "", nil, nil, 0, shared.AttrErr(path.Root("installation"),
			fmt.Errorf("%q is not an installation id <namespace>/<name> (landscaper_installation.<name>.id)", m.Installation.ValueString()))
	}
	root = shared.RootName(shared.InstallationModel{Name: types.StringValue(name), Namespace: types.StringValue(ns)})
	if key, err = hex.DecodeString(m.ReconcileKey.ValueString()); err != nil || len(key) != instance.ReconcileKeySize {
		return "", nil, nil, 0, shared.AttrErr(path.Root("reconcile_key"), fmt.Errorf("must be the installation's reconcile_key "+
			"(landscaper_installation.%s.reconcile_key, %d bytes in hex); it is empty for an installation that has not run "+
			"a job since it was imported, or since it was created by a provider build that did not sign records: its next "+
			"update sets it", name, instance.ReconcileKeySize))
	}
	if targets, err = m.targets(ctx); err != nil {
		return "", nil, nil, 0, err
	}
	timeout = shared.DefaultJobTimeout
	if s := m.Timeout.ValueString(); s != "" {
		d, err := time.ParseDuration(s)
		if err != nil || d <= 0 {
			return "", nil, nil, 0, shared.AttrErr(path.Root("timeout"), fmt.Errorf("%q is not a positive duration such as 10m", s))
		}
		timeout = d
	}
	return root, targets, key, timeout, nil
}

// targets are the Targets of targets and of provider_targets; one of
// them must give some.
func (m reconcileModel) targets(ctx context.Context) ([]api.Target, error) {
	var raw []types.String
	if err := m.Targets.ElementsAs(ctx, &raw, false); err != nil {
		return nil, shared.AttrErr(path.Root("targets"), errors.New("must be a list of known Target objects"))
	}
	targets := make([]api.Target, 0, len(raw))
	for i, v := range raw {
		t, err := shared.ParseTarget(v.ValueString(), path.Root("targets").AtListIndex(i))
		if err != nil {
			return nil, err
		}
		targets = append(targets, t)
	}
	byImport := map[string]api.Target{}
	if err := shared.ProviderTargets(ctx, shared.InstallationModel{ProviderTargets: m.ProviderTargets,
		ProviderTargetReferences: m.ProviderTargetReferences}, byImport); err != nil {
		return nil, err
	}
	names := make([]string, 0, len(byImport))
	for name := range byImport {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		targets = append(targets, byImport[name])
	}
	if len(targets) == 0 {
		return nil, shared.AttrErr(path.Root("targets"), errors.New("give the installation's target imports: targets, or "+
			"provider_targets with provider_target_references"))
	}
	return targets, nil
}

// progressLogger sends the job's progress to Terraform as action progress
// events (deploy items started and finished, executions' phases) and on
// to the request's log. The engine logs no configs, imports or targets.
type progressLogger struct {
	next interface{ Info(string, ...any) }
	send func(string)
	mu   sync.Mutex
}

func (l *progressLogger) Info(msg string, kv ...any) {
	l.next.Info(msg, kv...)
	fields := make([]string, 0, len(kv)/2)
	for i := 0; i+1 < len(kv); i += 2 {
		if k, ok := kv[i].(string); ok && k != "jobID" {
			fields = append(fields, fmt.Sprintf("%s=%v", k, kv[i+1]))
		}
	}
	sort.Strings(fields)
	l.mu.Lock() // items finish concurrently; Terraform takes one event at a time
	defer l.mu.Unlock()
	l.send(strings.TrimSpace(msg + " " + strings.Join(fields, " ")))
}
