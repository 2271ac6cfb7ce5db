// Package targetresource is the resource landscaper_target: a Target
// object built from a kubeconfig or a provider target, kept in state.
package targetresource

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/google/uuid"
	"github.com/hashicorp/terraform-plugin-framework-validators/boolvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringdefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"k8s.io/client-go/tools/clientcmd"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/provider/shared"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/redact"
)

var (
	_ resource.ResourceWithImportState    = (*targetResource)(nil)
	_ resource.ResourceWithModifyPlan     = (*targetResource)(nil)
	_ resource.ResourceWithValidateConfig = (*targetResource)(nil)
	_ resource.ResourceWithUpgradeState   = (*targetResource)(nil)
)

// NewTargetResource returns the landscaper_target resource: a Landscaper
// Target object built from a kubeconfig or any config, to pass to
// installations. It exists only in Terraform state; nothing is deployed.
func NewTargetResource() resource.Resource { return &targetResource{} }

type targetResource struct{}

type TargetModel struct {
	ID         types.String `tfsdk:"id"`
	Name       types.String `tfsdk:"name"`
	Type       types.String `tfsdk:"type"`
	Kubeconfig types.String `tfsdk:"kubeconfig"`
	// FromProvider: the kubeconfig is the provider's target_kubeconfigs[name]
	// (provider_kubeconfigs.go); the Target holds only a reference.
	FromProvider types.Bool   `tfsdk:"kubeconfig_from_provider"`
	Config       types.String `tfsdk:"config"`
	Target       types.String `tfsdk:"target"`
}

// targetSchemaVersion is the version of landscaper_target's schema. Bump it
// with every incompatible change and add the upgrader from the previous
// version to UpgradeState.
const targetSchemaVersion = 0

// UpgradeState holds one upgrader per earlier schema version; version 0 is
// the first release, so there is nothing to upgrade from yet.
func (r *targetResource) UpgradeState(context.Context) map[int64]resource.StateUpgrader {
	return map[int64]resource.StateUpgrader{}
}

func (r *targetResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_target"
}

func (r *targetResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	sources := []path.Expression{path.MatchRoot("kubeconfig"), path.MatchRoot("config"), path.MatchRoot("kubeconfig_from_provider")}
	exactlyOne := stringvalidator.ExactlyOneOf(sources...)
	resp.Schema = schema.Schema{
		Version: targetSchemaVersion,
		MarkdownDescription: "A Landscaper `Target`: where deploy items are deployed. Pass its `target` attribute to " +
			"`landscaper_installation.imports.targets`. The target only lives in Terraform state; creating it contacts no cluster.",
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{Computed: true, MarkdownDescription: "The target's name.",
				PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()}},
			"name": schema.StringAttribute{Required: true,
				MarkdownDescription: "Name of the Target object (`metadata.name`).",
				PlanModifiers:       []planmodifier.String{stringplanmodifier.RequiresReplace()},
				Validators:          []validator.String{stringvalidator.LengthBetween(1, 253)}},
			"type": schema.StringAttribute{Optional: true, Computed: true,
				Default:             stringdefault.StaticString(api.KubernetesClusterTargetType),
				MarkdownDescription: "Target type (`spec.type`). Defaults to `" + api.KubernetesClusterTargetType + "`."},
			"kubeconfig": schema.StringAttribute{Optional: true, Sensitive: true,
				MarkdownDescription: "Kubeconfig of the cluster (YAML), for `kubernetes-cluster` targets. Exactly one of `kubeconfig`, `config` and `kubeconfig_from_provider`. " +
					"It is kept in state (sensitive); use `kubeconfig_from_provider` to keep it out.",
				Validators: []validator.String{exactlyOne}},
			"kubeconfig_from_provider": schema.BoolAttribute{Optional: true,
				MarkdownDescription: "`true`: the kubeconfig of this `kubernetes-cluster` target is the provider block's " +
					"`target_kubeconfigs[name]`, read at every refresh, apply and destroy and never written to state, plans or " +
					"private state. The `target` then holds no kubeconfig, only a reference (an annotation) that the provider " +
					"honours for targets of this configuration; a blueprint template that reads the kubeconfig out of a target " +
					"(`getOidcKubeconfig`) finds none.",
				Validators: []validator.Bool{boolvalidator.ExactlyOneOf(sources...), boolvalidator.Equals(true)}},
			"config": schema.StringAttribute{Optional: true, Sensitive: true,
				MarkdownDescription: "Target configuration (`spec.config`) as JSON, e.g. `jsonencode({...})`, for any target type.",
				Validators:          []validator.String{exactlyOne}},
			"target": schema.StringAttribute{Computed: true, Sensitive: true,
				MarkdownDescription: "The Target object as JSON, as installations import it."},
		},
	}
}

// ValidateConfig reports malformed kubeconfigs and configs at plan time,
// pointing at the attribute.
func (r *targetResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var m TargetModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if _, err := TargetConfig(m); err != nil {
		shared.AddError(&resp.Diagnostics, nil, "Invalid Target Configuration", err)
	}
}

// ModifyPlan computes `target` during plan, so installations importing it
// can be validated before anything is applied.
func (r *targetResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() {
		return
	}
	var m TargetModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	ref, stable := providerReference(ctx, req.State, m)
	if !stable {
		// A new reference is chosen at apply: a random one here would
		// differ from the one Terraform plans again at apply.
		return
	}
	target, known := BuildTarget(m, ref)
	if !known {
		return
	}
	m.ID = m.Name
	m.Target = types.StringValue(target)
	resp.Diagnostics.Append(noSecrets.SetPlan(ctx, &resp.Plan, &m)...)
}

func (r *targetResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	r.write(ctx, req.Plan.Get, &resp.State, resp.Identity, &resp.Diagnostics)
}

func (r *targetResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	r.write(ctx, req.Plan.Get, &resp.State, resp.Identity, &resp.Diagnostics)
}

// Read keeps the state: a target has no remote object that could drift.
func (r *targetResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var m TargetModel
	resp.Diagnostics.Append(req.State.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if m.Type.IsNull() {
		m.Type = types.StringValue(api.KubernetesClusterTargetType)
	}
	m.ID = m.Name
	setTargetIdentity(ctx, resp.Identity, m.Name.ValueString(), &resp.Diagnostics)
	resp.Diagnostics.Append(noSecrets.SetState(ctx, &resp.State, &m)...)
}

func (r *targetResource) Delete(context.Context, resource.DeleteRequest, *resource.DeleteResponse) {}

// ImportState adopts a target by name (the ID, or the identity of an
// import block). Credentials cannot be read back from anywhere, so the
// next apply writes them from the configuration as an in-place update that
// deploys nothing.
func (r *targetResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	name := importedTargetName(ctx, req, &resp.Diagnostics)
	if name == "" {
		resp.Diagnostics.AddError("Invalid Import ID", "Import a landscaper_target by its name.")
		return
	}
	setTargetIdentity(ctx, resp.Identity, name, &resp.Diagnostics)
	resp.Diagnostics.Append(noSecrets.SetStateAttribute(ctx, &resp.State, path.Root("name"), name)...)
	resp.Diagnostics.Append(noSecrets.SetStateAttribute(ctx, &resp.State, path.Root("id"), name)...)
	resp.Diagnostics.Append(noSecrets.SetStateAttribute(ctx, &resp.State, path.Root("type"), api.KubernetesClusterTargetType)...)
}

func (r *targetResource) write(ctx context.Context, get func(context.Context, any) diag.Diagnostics, state *tfsdk.State, identity *tfsdk.ResourceIdentity, diags *diag.Diagnostics) {
	var m TargetModel
	diags.Append(get(ctx, &m)...)
	if diags.HasError() {
		return
	}
	if m.Target.IsNull() || m.Target.IsUnknown() {
		// Not known at plan; the plan's target (with its reference) wins otherwise.
		target, _ := BuildTarget(m, uuid.NewString())
		m.Target = types.StringValue(target)
	}
	m.ID = m.Name
	setTargetIdentity(ctx, identity, m.Name.ValueString(), diags)
	diags.Append(noSecrets.SetState(ctx, state, &m)...)
}

// BuildTarget returns the Target object JSON, or false while an input is
// unknown. reference is the annotation of a kubeconfig_from_provider target.
func BuildTarget(m TargetModel, reference string) (string, bool) {
	if m.Name.IsUnknown() || m.Type.IsUnknown() || m.Kubeconfig.IsUnknown() || m.Config.IsUnknown() || m.FromProvider.IsUnknown() {
		return "", false
	}
	cfg, err := TargetConfig(m)
	if err != nil {
		return "", false
	}
	t := api.NewTarget(m.Name.ValueString(), "", m.Type.ValueString(), cfg)
	if m.FromProvider.ValueBool() {
		t.Metadata.Annotations = map[string]string{api.KubeconfigFromProviderAnnotation: reference}
	}
	b, mErr := json.Marshal(t)
	if mErr != nil {
		return "", false
	}
	return string(b), true
}

// TargetConfig turns kubeconfig or config into the Target's spec.config.
// Unknown values pass: they are checked again at apply.
func TargetConfig(m TargetModel) (json.RawMessage, error) {
	switch {
	case m.FromProvider.ValueBool():
		if t := m.Type.ValueString(); t != "" && t != api.KubernetesClusterTargetType {
			return nil, shared.AttrMsg(path.Root("kubeconfig_from_provider"), fmt.Sprintf(
				"kubeconfig_from_provider is only valid for targets of type %q", api.KubernetesClusterTargetType))
		}
		return nil, nil
	case !m.Kubeconfig.IsNull() && !m.Kubeconfig.IsUnknown():
		if t := m.Type.ValueString(); t != "" && t != api.KubernetesClusterTargetType {
			return nil, shared.AttrMsg(path.Root("kubeconfig"), fmt.Sprintf(
				"kubeconfig is only valid for targets of type %q; use config for type %q", api.KubernetesClusterTargetType, t))
		}
		if _, err := clientcmd.Load([]byte(m.Kubeconfig.ValueString())); err != nil {
			// YAML errors may quote the offending line or map: a token.
			return nil, shared.AttrMsg(path.Root("kubeconfig"), "kubeconfig is not a valid kubeconfig: "+redact.Kubeconfig(err, m.Kubeconfig.ValueString()))
		}
		b, _ := json.Marshal(api.KubernetesClusterConfig{Kubeconfig: m.Kubeconfig.ValueString()})
		return b, nil
	case !m.Config.IsNull() && !m.Config.IsUnknown():
		var v any
		if err := json.Unmarshal([]byte(m.Config.ValueString()), &v); err != nil {
			// Syntax errors quote the offending character; say where only.
			where := ""
			var se *json.SyntaxError
			if errors.As(err, &se) {
				where = fmt.Sprintf(" (syntax error at byte %d)", se.Offset)
			}
			return nil, shared.AttrMsg(path.Root("config"), "config must be a JSON document (use jsonencode)"+where)
		}
		if _, isObject := v.(map[string]any); !isObject {
			return nil, shared.AttrMsg(path.Root("config"), "config must be a JSON object")
		}
		b, _ := json.Marshal(v) // canonical form: sorted keys, no spacing
		return b, nil
	}
	return nil, nil
}

// providerReference returns the reference of the target in state when it
// has the same name, and false when the target needs a new one (Create or
// Update chooses it). Targets without kubeconfig_from_provider need none.
func providerReference(ctx context.Context, state tfsdk.State, m TargetModel) (string, bool) {
	if !m.FromProvider.ValueBool() {
		return "", true
	}
	if state.Raw.IsNull() {
		return "", false
	}
	var prior TargetModel
	if state.Get(ctx, &prior).HasError() || prior.Name.ValueString() != m.Name.ValueString() {
		return "", false
	}
	var t api.Target
	if json.Unmarshal([]byte(prior.Target.ValueString()), &t) != nil {
		return "", false
	}
	ref := t.Metadata.Annotations[api.KubeconfigFromProviderAnnotation]
	return ref, ref != ""
}

// noSecrets is the masking exit (shared.Security) for a target's
// attributes: the only credential, the kubeconfig, is the configuration's
// own and stays in the sensitive attributes, so nothing else is known to
// mask.
var noSecrets *shared.Security
