package provider

import (
	"context"
	"os"
	"path/filepath"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/hostaccess"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/provider/shared"
)

// providerModel is the provider block. Everything is optional: a
// configuration whose installations only use inline targets needs none of
// it. Configure contacts nothing; the host cluster is read at plan.
type providerModel struct {
	Kubernetes                  *kubernetesModel          `tfsdk:"kubernetes"`
	Registry                    *registryModel            `tfsdk:"registry"`
	RenderLimits                *shared.RenderLimitsModel `tfsdk:"render_limits"`
	AllowExecInBlueprintTargets types.Bool                `tfsdk:"allow_exec_in_blueprint_targets"`
	Parallelism                 types.Int64               `tfsdk:"parallelism"`
	ClusterQPS                  types.Int64               `tfsdk:"cluster_qps"`
	ClusterBurst                types.Int64               `tfsdk:"cluster_burst"`
	TargetKubeconfigs           types.Map                 `tfsdk:"target_kubeconfigs"`
	ExternalDeployers           types.List                `tfsdk:"external_deployers"`
	DeployItemTimeouts          types.Object              `tfsdk:"deploy_item_timeouts"`
	PlanDiff                    types.String              `tfsdk:"plan_diff"`
	TrustedHostTargets          types.List                `tfsdk:"trusted_host_targets"`
	HelmStorage                 types.Object              `tfsdk:"helm_storage"`
}

// kubernetesModel names the "host" cluster from which Secret and ConfigMap
// imports are read, with the field names of the helm and kubernetes
// providers.
type kubernetesModel struct {
	ConfigPath           types.String `tfsdk:"config_path"`
	ConfigContext        types.String `tfsdk:"config_context"`
	Host                 types.String `tfsdk:"host"`
	Token                types.String `tfsdk:"token"`
	ClusterCACertificate types.String `tfsdk:"cluster_ca_certificate"`
	ClientCertificate    types.String `tfsdk:"client_certificate"`
	ClientKey            types.String `tfsdk:"client_key"`
	Insecure             types.Bool   `tfsdk:"insecure"`
	Exec                 *execModel   `tfsdk:"exec"`
}

type execModel struct {
	APIVersion types.String      `tfsdk:"api_version"`
	Command    types.String      `tfsdk:"command"`
	Args       []types.String    `tfsdk:"args"`
	Env        map[string]string `tfsdk:"env"`
}

func (p *landscaperProvider) Schema(_ context.Context, _ provider.SchemaRequest, resp *provider.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Runs [Landscaper](https://github.com/gardener/landscaper) installations inside `terraform apply`: " +
			"blueprints are rendered, their deploy items applied to the clusters their targets name, and exports returned as attributes. " +
			"No Landscaper controllers are needed.",
		Attributes: map[string]schema.Attribute{
			"registry": registrySchema(),
			"kubernetes": schema.SingleNestedAttribute{
				Optional: true,
				MarkdownDescription: "The host cluster, which the provider only reads, except for the `DeployItem`s of `external_deployers` without a `kubeconfig`. At plan, and again at apply: " +
					"`imports.secrets` and `imports.config_maps`, the Landscaper `Context` an installation's `context` names " +
					"with the pull Secrets it lists, and the DataObjects and Targets (and Secrets their `secretRef` names) an " +
					"installation's `manifest` refers to but `manifest_objects` does not hold. At `terraform import`: the " +
					"Landscaper Installation to migrate and the objects it uses. A Secret, ConfigMap, DataObject or Target " +
					"that cannot be read at plan leaves the planned deploy items unknown, and apply reads it again. Not " +
					"needed when installations only import inline values and targets.",
				Attributes: map[string]schema.Attribute{
					"config_path": schema.StringAttribute{Optional: true,
						MarkdownDescription: "Path to a kubeconfig file. Defaults to `KUBE_CONFIG_PATH`, then `KUBECONFIG`."},
					"config_context": schema.StringAttribute{Optional: true,
						MarkdownDescription: "Context of the kubeconfig to use. Defaults to its current context."},
					"host": schema.StringAttribute{Optional: true,
						MarkdownDescription: "URL of the API server, overriding the kubeconfig's."},
					"token": schema.StringAttribute{Optional: true, Sensitive: true,
						MarkdownDescription: "Bearer token."},
					"cluster_ca_certificate": schema.StringAttribute{Optional: true,
						MarkdownDescription: "PEM-encoded CA certificate of the API server."},
					"client_certificate": schema.StringAttribute{Optional: true,
						MarkdownDescription: "PEM-encoded client certificate."},
					"client_key": schema.StringAttribute{Optional: true, Sensitive: true,
						MarkdownDescription: "PEM-encoded client key."},
					"insecure": schema.BoolAttribute{Optional: true,
						MarkdownDescription: "Skip verification of the API server's certificate."},
					"exec": schema.SingleNestedAttribute{Optional: true,
						MarkdownDescription: "A client-go credential plugin that prints credentials.",
						Attributes: map[string]schema.Attribute{
							"api_version": schema.StringAttribute{Required: true,
								MarkdownDescription: "API version of the ExecCredential, e.g. `client.authentication.k8s.io/v1`."},
							"command": schema.StringAttribute{Required: true, MarkdownDescription: "Command to run."},
							"args": schema.ListAttribute{Optional: true, ElementType: types.StringType,
								MarkdownDescription: "Arguments of the command."},
							"env": schema.MapAttribute{Optional: true, ElementType: types.StringType, Sensitive: true,
								MarkdownDescription: "Environment variables of the command."},
						},
					},
				},
			},
		},
	}
	for name, a := range shared.SecurityAttributes() {
		resp.Schema.Attributes[name] = a
	}
	shared.TuningAttributes(resp.Schema.Attributes)
	shared.KubeconfigsAttribute(resp.Schema.Attributes)
	shared.ExternalDeployersAttribute(resp.Schema.Attributes)
	shared.DeployItemTimeoutsAttribute(resp.Schema.Attributes)
	shared.ProviderPlanDiffAttribute(resp.Schema.Attributes)
	shared.TrustedHostTargetsAttribute(resp.Schema.Attributes)
	shared.HelmStorageAttribute(resp.Schema.Attributes)
}

func (p *landscaperProvider) Configure(ctx context.Context, req provider.ConfigureRequest, resp *provider.ConfigureResponse) {
	var cfg providerModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if resp.Diagnostics.HasError() {
		return
	}
	registry, err := newRegistry(cfg.Registry)
	if err != nil {
		shared.AddError(&resp.Diagnostics, nil, "Invalid Registry Configuration", err)
		return
	}
	sec, diags := cfg.securitySettings()
	resp.Diagnostics.Append(diags...)
	kubeconfigs, diags := shared.ProviderKubeconfigs(ctx, cfg.TargetKubeconfigs)
	resp.Diagnostics.Append(diags...)
	sec.TargetKubeconfigs = kubeconfigs
	sec.TrustedHostTargets, diags = shared.TrustedHostTargets(ctx, cfg.TrustedHostTargets)
	resp.Diagnostics.Append(diags...)
	sec.HelmStorage, diags = shared.HelmStorage(ctx, cfg.HelmStorage, os.Getenv)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	data := shared.NewProviderData(p.version, hostClusterSettings(cfg.Kubernetes, os.Getenv), registry, sec, shared.TuningOf(cfg.Parallelism, cfg.ClusterQPS, cfg.ClusterBurst))
	if resp.Diagnostics.Append(data.ConfigureDeployers(ctx, cfg.DeployItemTimeouts, cfg.ExternalDeployers)...); resp.Diagnostics.HasError() {
		return
	}
	data.PlanDiff = cfg.PlanDiff.ValueString()
	resp.ResourceData = data
	resp.ListResourceData = data
	resp.DataSourceData = data
	resp.ActionData = data
}

// hostClusterSettings reads the block, falling back to KUBE_CONFIG_PATH and
// KUBECONFIG as the kubernetes and helm providers do.
func hostClusterSettings(m *kubernetesModel, getenv func(string) string) hostaccess.HostSettings {
	var s hostaccess.HostSettings
	if m != nil {
		s.Configured = true
		if p := m.ConfigPath.ValueString(); p != "" {
			s.ConfigPaths = []string{p}
		}
		s.Context = m.ConfigContext.ValueString()
		s.Host = m.Host.ValueString()
		s.Token = m.Token.ValueString()
		s.CACert = m.ClusterCACertificate.ValueString()
		s.ClientCert = m.ClientCertificate.ValueString()
		s.ClientKey = m.ClientKey.ValueString()
		s.Insecure = m.Insecure.ValueBool()
		if m.Exec != nil {
			s.ExecAPIVersion = m.Exec.APIVersion.ValueString()
			s.ExecCommand = m.Exec.Command.ValueString()
			for _, a := range m.Exec.Args {
				s.ExecArgs = append(s.ExecArgs, a.ValueString())
			}
			s.ExecEnv = m.Exec.Env
		}
	}
	if len(s.ConfigPaths) == 0 && s.Host == "" {
		for _, env := range []string{"KUBE_CONFIG_PATH", "KUBECONFIG"} {
			if v := getenv(env); v != "" {
				s.ConfigPaths = filepath.SplitList(v)
				s.Configured = true
				break
			}
		}
	}
	return s
}

func (m providerModel) securitySettings() (shared.SecuritySettings, diag.Diagnostics) {
	l, diags := m.RenderLimits.Limits()
	return shared.SecuritySettings{Limits: l, AllowUntrustedCredentials: m.AllowExecInBlueprintTargets.ValueBool()}, diags
}
