package installation

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/list"
	listschema "github.com/hashicorp/terraform-plugin-framework/list/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/provider/shared"
)

// The list resource landscaper_installation (Terraform >= 1.14, `terraform
// query`; OpenTofu has no list resources) finds installations to import:
// from "inventory", the installations this provider deployed, by the
// inventory Secrets in the clusters of target_kubeconfigs (after a lost
// state, or to take one over in another workspace); from "landscaper",
// the root Installations of a running Landscaper in the provider's host
// cluster (migration). Each result carries the identity an import block
// takes and, when asked for, the state that import fills (the same
// code), so `-generate-config-out` writes the configuration the import's
// plan finds unchanged.

var (
	_ list.ListResourceWithConfigure = (*installationList)(nil)
)

// Where the list looks.
const (
	listFromInventory  = "inventory"
	listFromLandscaper = "landscaper"
)

type installationList struct{ data *InstallationData }

// NewInstallationList is the list resource of landscaper_installation.
func NewInstallationList() list.ListResource { return &installationList{} }

type installationListConfig struct {
	Source    types.String `tfsdk:"source"`
	Namespace types.String `tfsdk:"namespace"`
	Labels    types.Map    `tfsdk:"labels"`
}

func (l *installationList) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_installation"
}

func (l *installationList) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	l.data = installationDataFrom(req.ProviderData, &resp.Diagnostics)
}

func (l *installationList) ListResourceConfigSchema(_ context.Context, _ list.ListResourceSchemaRequest, resp *list.ListResourceSchemaResponse) {
	resp.Schema = listschema.Schema{
		MarkdownDescription: "Finds installations to import with `terraform query` (Terraform >= 1.14; OpenTofu has no list resources): " +
			"those this provider deployed, by their inventories in the clusters of the provider block's `target_kubeconfigs`, " +
			"or the root Installations of a running Landscaper in the host cluster of the provider's `kubernetes` block.",
		Attributes: map[string]listschema.Attribute{
			"source": listschema.StringAttribute{Optional: true,
				MarkdownDescription: "`inventory` (default): installations of this provider, found by their inventory Secrets in the clusters of `target_kubeconfigs`. " +
					"`landscaper`: root Installations (`landscaper.gardener.cloud/v1alpha1`) in the host cluster, to migrate.",
				Validators: []validator.String{stringvalidator.OneOf(listFromInventory, listFromLandscaper)}},
			"namespace": listschema.StringAttribute{Optional: true,
				MarkdownDescription: "Only installations of this namespace (the installation's `namespace`, not where its inventory is). All when unset."},
			"labels": listschema.MapAttribute{Optional: true, ElementType: types.StringType,
				MarkdownDescription: "Only objects with all of these labels: the Landscaper Installations for `landscaper`, the inventory Secrets for `inventory`."},
		},
	}
}

// listed is one installation found.
type listed struct{ namespace, name string }

func (l *installationList) List(ctx context.Context, req list.ListRequest, stream *list.ListResultsStream) {
	var cfg installationListConfig
	var diags diag.Diagnostics
	diags.Append(req.Config.Get(ctx, &cfg)...)
	selector := map[string]string{}
	if !diags.HasError() && !cfg.Labels.IsNull() {
		diags.Append(cfg.Labels.ElementsAs(ctx, &selector, false)...)
	}
	if diags.HasError() || l.data == nil {
		stream.Results = list.ListResultsStreamDiagnostics(diags)
		return
	}
	var found []listed
	var err error
	source := cfg.Source.ValueString()
	if source == listFromLandscaper {
		found, err = l.landscaperRoots(ctx, cfg.Namespace.ValueString(), labels.SelectorFromSet(selector).String())
	} else {
		found, err = l.inventoryRoots(ctx, cfg.Namespace.ValueString(), labels.SelectorFromSet(selector).String())
	}
	if err != nil {
		shared.AddError(&diags, l.data.Security, "Cannot List Installations", err)
		stream.Results = list.ListResultsStreamDiagnostics(diags)
		return
	}
	stream.Results = func(push func(list.ListResult) bool) {
		for i, f := range found {
			if req.Limit > 0 && int64(i) >= req.Limit {
				return
			}
			if !push(l.result(ctx, req, source, f)) {
				return
			}
		}
	}
}

// result is the list result of f: its identity, and the state its import
// fills when the CLI asks for it.
func (l *installationList) result(ctx context.Context, req list.ListRequest, source string, f listed) list.ListResult {
	res := req.NewListResult(ctx)
	res.DisplayName = f.namespace + "/" + f.name
	setInstallationIdentity(ctx, res.Identity, f.namespace, f.name, &res.Diagnostics)
	if !req.IncludeResource || res.Diagnostics.HasError() {
		return res
	}
	base, err := keptResource{}.decode(ctx) // every attribute null, with its type
	if err != nil {
		shared.AddError(&res.Diagnostics, l.data.Security, "Cannot List Installations", err)
		return res
	}
	base.ID, base.Name, base.Namespace = types.StringValue(res.DisplayName), types.StringValue(f.name), types.StringValue(f.namespace)
	hashKey, err := shared.NewConfigHashKey() // the import draws its own
	if err != nil {
		shared.AddError(&res.Diagnostics, l.data.Security, "Cannot List Installations", err)
		return res
	}
	var state shared.InstallationModel
	if source == listFromLandscaper {
		state = l.migrated(ctx, base, hashKey, &res.Diagnostics)
	} else if fill, _ := l.data.fromInventory(ctx, base, hashKey, &res.Diagnostics); fill != nil {
		state = fill.state
	}
	if res.Diagnostics.HasError() {
		return notListed(res)
	}
	res.Diagnostics.Append(l.data.Security.SetResult(ctx, res.Resource, &state)...)
	return res
}

// notListed turns a result whose import would fail into a warning that
// says why it is left out, so the others are still listed.
func notListed(res list.ListResult) list.ListResult {
	var diags diag.Diagnostics
	for _, d := range res.Diagnostics {
		if d.Severity() == diag.SeverityError {
			shared.AddWarning(&diags, nil, "Installation Not Listed", errors.New(res.DisplayName+" is left out: its import would fail. "+d.Summary()+": "+d.Detail()))
		} else {
			diags.Append(d)
		}
	}
	return list.ListResult{Diagnostics: diags}
}

// inventoryRoots are the installations of namespace ("" for all) whose
// inventories the clusters of target_kubeconfigs hold.
func (l *installationList) inventoryRoots(ctx context.Context, namespace, selector string) ([]listed, error) {
	roots, err := l.data.Instances(ctx).Roots(ctx, l.data.ProviderTargets(), selector)
	if err != nil {
		return nil, err
	}
	var out []listed
	for _, root := range roots {
		// rootName: "<namespace>.<name>", or "<name>" in namespace default;
		// a namespace never holds a dot.
		ns, name, found := strings.Cut(root, ".")
		if !found {
			ns, name = "default", root
		}
		if namespace == "" || namespace == ns {
			out = append(out, listed{namespace: ns, name: name})
		}
	}
	return out, nil
}

// landscaperRoots are the root Installations of namespace ("" for all) in
// the host cluster: those no other Installation encompasses or owns
// (subinstallations are imported with their root).
func (l *installationList) landscaperRoots(ctx context.Context, namespace, selector string) ([]listed, error) {
	client, err := l.data.hostDynamic()
	if err != nil {
		return nil, fmt.Errorf("the provider's kubernetes block: %w", err)
	}
	if client == nil {
		return nil, fmt.Errorf("source %q reads the host cluster: configure the provider's kubernetes block", listFromLandscaper)
	}
	items, err := client.Resource(lsInstallations).Namespace(namespace).List(ctx, metav1.ListOptions{LabelSelector: selector})
	if err != nil {
		return nil, fmt.Errorf("listing Landscaper Installations in the host cluster: %w", err)
	}
	var out []listed
	for _, u := range items.Items {
		_, sub := u.GetLabels()["landscaper.gardener.cloud/encompassed-by"]
		for _, o := range u.GetOwnerReferences() {
			sub = sub || o.Kind == "Installation"
		}
		if !sub {
			out = append(out, listed{namespace: u.GetNamespace(), name: u.GetName()})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].namespace+"/"+out[i].name < out[j].namespace+"/"+out[j].name })
	return out, nil
}

// migrated is the state the import of Landscaper's Installation base
// names fills (installation_migrate.go).
func (l *installationList) migrated(ctx context.Context, base shared.InstallationModel, hashKey shared.ConfigHashKey, diags *diag.Diagnostics) shared.InstallationModel {
	client, err := l.data.hostDynamic()
	if err != nil || client == nil {
		shared.AddError(diags, l.data.Security, "Host Cluster Unavailable", fmt.Errorf("the provider's kubernetes block: %w", err))
		return base
	}
	mig, err := l.data.migrate(ctx, client, base)
	if err != nil {
		shared.AddError(diags, l.data.Security, "Cannot Import From Landscaper", err)
		return base
	}
	hashKey.KeyRows(mig.outcome.items)
	return mig.outcome.toModel(ctx, mig.model, diags)
}
