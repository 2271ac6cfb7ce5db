package shared

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"

	"github.com/hashicorp/terraform-plugin-framework-validators/listvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"k8s.io/apimachinery/pkg/util/validation"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer/external"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/hostaccess"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/target"
)

// Deploy items of a type the provider has no deployer for — Landscaper's
// container and terraform deployers, a company's own — are handed to a
// deployer that runs in a cluster, through Landscaper's deployer contract
// (package external), for the types the user names in
// external_deployers. A built-in type may be handed out too, for every
// item or only for those whose target a selector picks (fenced
// environments, where only a deployer inside a network reaches its
// clusters).

const externalDeployersAttr = "external_deployers"

// externalDeployerModel is one entry of external_deployers.
type externalDeployerModel struct {
	Types        types.List   `tfsdk:"types"`
	Namespace    types.String `tfsdk:"namespace"`
	Kubeconfig   types.String `tfsdk:"kubeconfig"`
	Targets      types.List   `tfsdk:"targets"`
	TargetLabels types.Map    `tfsdk:"target_labels"`
}

// unknownTypeHint ends the error of an item of a type nobody serves.
const unknownTypeHint = "to hand its items to a deployer that runs in a cluster (Landscaper's container or terraform " +
	"deployer, your own), name the type in the provider's external_deployers"

func ExternalDeployersAttribute(attrs map[string]schema.Attribute) {
	attrs[externalDeployersAttr] = schema.ListNestedAttribute{Optional: true,
		MarkdownDescription: "Deploy item types handed to deployers that run in a cluster (Landscaper's container and terraform " +
			"deployers, your own), through Landscaper's deployer contract: for each item the provider writes a `DeployItem` " +
			"(with the `Target` and `Context` it references) into `namespace` and waits until a deployer watching it " +
			"finishes the job. A built-in type (`landscaper.gardener.cloud/kubernetes-manifest`, `…/helm`, `…/mock`) may be " +
			"named too: all its items, or those whose target `targets` / `target_labels` pick, go to the external deployer, " +
			"the rest stay built in. Entries are tried in order; a type may be named twice only with a selector. " +
			"See the guide \"Using Landscaper's deployers\".",
		NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
			"types": schema.ListAttribute{Required: true, ElementType: types.StringType,
				Validators:          []validator.List{listvalidator.SizeAtLeast(1)},
				MarkdownDescription: "Deploy item types (`spec.type`) this deployer serves, e.g. `landscaper.gardener.cloud/container`."},
			"namespace": schema.StringAttribute{Required: true,
				MarkdownDescription: "Namespace of the `DeployItem`, `Target` and `Context` objects, which the deployer watches; " +
					"the installation's inventory of these items is kept there too."},
			"kubeconfig": schema.StringAttribute{Optional: true, Sensitive: true,
				MarkdownDescription: "Kubeconfig of the cluster of those objects. Default: the host cluster of the `kubernetes` block."},
			"targets": schema.ListAttribute{Optional: true, ElementType: types.StringType,
				MarkdownDescription: "Only items whose target has one of these names (a `landscaper_target`'s `name`)."},
			"target_labels": schema.MapAttribute{Optional: true, ElementType: types.StringType,
				MarkdownDescription: "Only items whose target carries all these labels."},
		}},
	}
}

// handOut registers the external deployers of cfg, in front of the
// built-in ones for the types they share.
func (d *ProviderData) handOut(ctx context.Context, entries types.List, host hostaccess.HostSettings) diag.Diagnostics {
	var diags diag.Diagnostics
	d.Engine.Deployers.SetUnknownTypeHint(unknownTypeHint)
	if entries.IsNull() || entries.IsUnknown() {
		return diags
	}
	var models []externalDeployerModel
	if diags.Append(entries.ElementsAs(ctx, &models, false)...); diags.HasError() {
		return diags
	}
	routes := map[string][]external.Route{}
	var order []string
	for i, m := range models {
		at := path.Root(externalDeployersAttr).AtListIndex(i)
		route, itemTypes, err := d.externalRoute(ctx, m, host, at)
		if err != nil {
			AddError(&diags, d.Security, "Invalid External Deployer", err)
			continue
		}
		for _, t := range itemTypes {
			if prev := routes[t]; len(prev) > 0 && prev[len(prev)-1].Select.Empty() {
				AddError(&diags, d.Security, "Invalid External Deployer", AttrErr(at.AtName("types"),
					fmt.Errorf("type %q is already handed to an earlier entry for every target; give one of them targets or target_labels", t)))
				continue
			}
			if _, ok := routes[t]; !ok {
				order = append(order, t)
			}
			routes[t] = append(routes[t], route)
		}
	}
	for _, t := range order {
		builtin, _ := d.Engine.Deployers.Lookup(t)
		d.Engine.Deployers.Replace(t, external.NewRouter(t, builtin, routes[t]...))
	}
	return diags
}

// externalRoute is the route of one entry and the types it serves.
func (d *ProviderData) externalRoute(ctx context.Context, m externalDeployerModel, host hostaccess.HostSettings, at path.Path) (external.Route, []string, error) {
	var itemTypes, names []string
	var labels map[string]string
	var diags diag.Diagnostics
	diags.Append(m.Types.ElementsAs(ctx, &itemTypes, false)...)
	if !m.Targets.IsNull() {
		diags.Append(m.Targets.ElementsAs(ctx, &names, false)...)
	}
	if !m.TargetLabels.IsNull() {
		diags.Append(m.TargetLabels.ElementsAs(ctx, &labels, false)...)
	}
	if diags.HasError() {
		return external.Route{}, nil, AttrErr(at, errors.New("types, targets and target_labels must be known when the provider is configured"))
	}
	for i, t := range itemTypes {
		if t == "" || slices.Contains(itemTypes[i+1:], t) {
			return external.Route{}, nil, AttrErr(at.AtName("types"), fmt.Errorf("type %q is empty or named twice", t))
		}
	}
	ns := m.Namespace.ValueString()
	if errs := validation.IsDNS1123Label(ns); !m.Namespace.IsUnknown() && len(errs) > 0 {
		return external.Route{}, nil, AttrErr(at.AtName("namespace"), fmt.Errorf("%q is not a namespace name: %v", ns, errs))
	}
	home := d.homeOf(m.Kubeconfig, ns, host)
	e := external.New(external.Options{Namespace: ns, Kubeconfig: d.Pool.ProviderKubeconfig,
		Connect: func() (external.Connection, error) {
			t, err := home()
			if err != nil {
				return external.Connection{}, err
			}
			c, err := d.Pool.Clients(t)
			if err != nil {
				return external.Connection{}, err
			}
			return external.Connection{Client: c.Dynamic, Home: t}, nil
		}})
	return external.Route{Select: external.TargetSelector{Names: names, Labels: labels}, Deployer: e}, itemTypes, nil
}

// homeOf returns the target of the cluster of an entry's DeployItems:
// its kubeconfig, or the host cluster's, with the entry's namespace. It
// is built at first use (the host cluster's kubeconfig files may not
// exist before the apply) and trusted: it is the user's own.
func (d *ProviderData) homeOf(kubeconfig types.String, namespace string, host hostaccess.HostSettings) func() (*api.Target, error) {
	return sync.OnceValues(func() (*api.Target, error) {
		var kc string
		var err error
		switch {
		case kubeconfig.IsUnknown():
			return nil, errors.New("its kubeconfig is not known yet")
		case kubeconfig.IsNull():
			if kc, err = host.Kubeconfig(namespace); err != nil {
				if errors.Is(err, target.ErrNoHostCluster) {
					err = errors.New("no kubeconfig given and no host cluster configured: set the entry's kubeconfig or the provider's kubernetes block")
				}
				return nil, err
			}
		default:
			if kc, err = target.WithNamespace(kubeconfig.ValueString(), namespace); err != nil {
				return nil, err
			}
		}
		d.Pool.Trust(kc)
		config, err := json.Marshal(api.KubernetesClusterConfig{Kubeconfig: kc})
		if err != nil {
			return nil, err
		}
		t := api.NewTarget("external-deployer-"+namespace, "", api.KubernetesClusterTargetType, config)
		return &t, nil
	})
}
