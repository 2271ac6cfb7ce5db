package shared

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint/template"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer/helm"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine/snapshot"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/redact"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/target"
)

// RenderLimitsModel is the provider's render_limits block
// (docs/guides/security.md). Unset fields keep template.DefaultLimits.
type RenderLimitsModel struct {
	Timeout      types.String `tfsdk:"timeout"`
	MaxSteps     types.Int64  `tfsdk:"max_steps"`
	MaxBytes     types.Int64  `tfsdk:"max_bytes"`
	MaxYAMLNodes types.Int64  `tfsdk:"max_yaml_nodes"`
	MaxMemoryMiB types.Int64  `tfsdk:"max_memory_mib"`
	MaxStackMiB  types.Int64  `tfsdk:"max_stack_mib"`
}

// SecurityAttributes are the provider block's security settings.
func SecurityAttributes() map[string]schema.Attribute {
	d := template.DefaultLimits()
	return map[string]schema.Attribute{
		"allow_exec_in_blueprint_targets": schema.BoolAttribute{Optional: true,
			MarkdownDescription: "Let kubeconfigs that are not the configuration's own use `exec`, `auth-provider`, " +
				"token/certificate/key files or `proxy-url`: targets a blueprint exports or builds from data, Landscaper Targets " +
				"labeled as exported by an installation (`data.landscaper.gardener.cloud/sourceType: export`), and Targets read " +
				"from the host cluster (a `manifest`'s Targets that `manifest_objects` lacks, a migration's). Off by default: such " +
				"a kubeconfig could run any program on the machine running Terraform. Targets written in the configuration " +
				"(`landscaper_target`, `imports.targets`, `target_lists`, `target_maps`, the Targets of `manifest_objects`) may " +
				"always use them; to trust single Targets of the host cluster, name them in `trusted_host_targets`."},
		"render_limits": schema.SingleNestedAttribute{Optional: true,
			MarkdownDescription: "Bounds for rendering one template execution of a blueprint, and one rendering of a Helm chart " +
				"(at plan and apply: `timeout`, `max_bytes` of output, `max_memory_mib`, `max_stack_mib`). Blueprints are untrusted code " +
				"rendered at plan; a template exceeding a bound fails with a diagnostic naming it. The defaults are far above " +
				"what real blueprints need.",
			Attributes: map[string]schema.Attribute{
				"timeout": schema.StringAttribute{Optional: true,
					MarkdownDescription: fmt.Sprintf("Wall time of one execution, e.g. `30s`. Default `%s`.", d.Timeout)},
				"max_steps": schema.Int64Attribute{Optional: true,
					MarkdownDescription: fmt.Sprintf("GoTemplate loop iterations and template calls. Default %d.", d.MaxSteps)},
				"max_bytes": schema.Int64Attribute{Optional: true,
					MarkdownDescription: fmt.Sprintf("Bytes of strings, lists and output a GoTemplate execution builds. Default %d.", d.MaxBytes)},
				"max_yaml_nodes": schema.Int64Attribute{Optional: true,
					MarkdownDescription: fmt.Sprintf("Nodes of a YAML document with its aliases expanded. Default %d.", d.MaxYAMLNodes)},
				"max_memory_mib": schema.Int64Attribute{Optional: true,
					MarkdownDescription: fmt.Sprintf("Memory of the process a Spiff execution runs in, in MiB. Default %d.", d.MaxMemoryBytes>>20)},
				"max_stack_mib": schema.Int64Attribute{Optional: true,
					MarkdownDescription: fmt.Sprintf("Stack of a Spiff execution (how deep lambdas recurse), in MiB. Default %d.", d.MaxStackBytes>>20)},
			},
		},
	}
}

// SecuritySettings are the provider block's security settings, checked.
type SecuritySettings struct {
	Limits                    template.Limits
	AllowUntrustedCredentials bool
	// TargetKubeconfigs: provider_kubeconfigs.go.
	TargetKubeconfigs map[string]string
	// TrustedHostTargets: provider_host_targets.go.
	TrustedHostTargets map[string]bool
	// HelmStorage: provider_helm_storage.go. Its connection string is a
	// secret of the mask.
	HelmStorage helm.Storage
}

// Limits converts the block; nil means the defaults.
func (m *RenderLimitsModel) Limits() (template.Limits, diag.Diagnostics) {
	var l template.Limits
	var diags diag.Diagnostics
	if m == nil {
		return l.WithDefaults(), diags
	}
	base := path.Root("render_limits")
	if s := m.Timeout.ValueString(); s != "" {
		d, err := time.ParseDuration(s)
		if err != nil || d <= 0 {
			diags.AddAttributeError(base.AtName("timeout"), "Invalid Render Limit", "timeout must be a positive duration such as 30s")
		}
		l.Timeout = d
	}
	for _, f := range []struct {
		name  string
		v     types.Int64
		set   *int64
		scale int64
	}{
		{"max_steps", m.MaxSteps, &l.MaxSteps, 1},
		{"max_bytes", m.MaxBytes, &l.MaxBytes, 1},
		{"max_yaml_nodes", m.MaxYAMLNodes, &l.MaxYAMLNodes, 1},
		{"max_memory_mib", m.MaxMemoryMiB, &l.MaxMemoryBytes, 1 << 20},
		{"max_stack_mib", m.MaxStackMiB, &l.MaxStackBytes, 1 << 20},
	} {
		if f.v.IsNull() || f.v.IsUnknown() {
			continue
		}
		if f.v.ValueInt64() <= 0 {
			AddError(&diags, nil, "Invalid Render Limit", AttrMsg(base.AtName(f.name), f.name+" must be positive"))
			continue
		}
		*f.set = f.v.ValueInt64() * f.scale
	}
	return l.WithDefaults(), diags
}

// Security is what a provider instance knows to keep blueprints in
// bounds and secrets out of messages: the target pool (which kubeconfigs
// are the user's own), the secrets seen so far and the render limits.
type Security struct {
	pool    *target.Pool // nil where nothing is deployed (data sources)
	Secrets redact.Secrets
	limits  template.Limits
	// trustedHostTargets are the host-cluster Targets the user trusts
	// ("<namespace>/<name>", trusted_host_targets).
	trustedHostTargets map[string]bool
}

// TrustImports marks the kubeconfigs of the target imports that are the
// user's own (provider_host_targets.go) as trusted (target.Pool.Trust)
// and registers every target's credentials and the values of Secret
// imports as secrets to scrub.
func (s *Security) TrustImports(ctx context.Context, m InstallationModel, in blueprint.Imports) {
	written := writtenTargets(m)
	trust := func(t api.Target) { s.TrustTarget(t, written(t)) }
	for _, t := range in.Targets {
		trust(t)
	}
	for _, list := range in.TargetLists {
		for _, t := range list {
			trust(t)
		}
	}
	for _, tm := range in.TargetMaps {
		for _, t := range tm {
			trust(t)
		}
	}
	s.Secrets.AddWriteOnly(WriteOnlyValue(ctx, m))
	var im ImportsModel
	if ok, err := AsObject(ctx, m.Imports, &im, path.Root("imports")); err != nil || !ok || im.Secrets.IsNull() || im.Secrets.IsUnknown() {
		return
	}
	for name := range im.Secrets.Elements() {
		if v, ok := in.Data[name]; ok {
			s.Secrets.AddValueAt(name, v) // its booleans by their path
		}
	}
}

// TrustSnapshot trusts the root installation's target imports recorded in
// a snapshot, as trustImports trusts them, for m as the state records it:
// destroy and refresh run without the configuration. Only a snapshot an
// apply wrote (p, private_snapshot.go) is trusted; one an import filled
// from a cluster, and m with it, is untrusted: its targets are learned as
// secrets, none may run a program or borrow a provider kubeconfig, but
// those the import made itself (Provenance.Own).
func (s *Security) TrustSnapshot(m InstallationModel, snap *engine.Snapshot, p Provenance) {
	if snap == nil || snap.Root == nil {
		return
	}
	if !p.Applied() {
		EachTarget(snap.Root.Targets, func(t api.Target) {
			if p.Own(t) { // made by the import: a target_kubeconfigs cluster it searched
				s.TrustTarget(t, true)
				return
			}
			s.LearnTarget(t)
		})
		return
	}
	written := writtenTargets(m)
	EachTarget(snap.Root.Targets, func(t api.Target) { s.TrustTarget(t, written(t)) })
}

// LearnSnapshot registers as secrets what a job's snapshot holds that
// messages must not show: the credentials of every target an installation
// of the tree imported or exported (a blueprint-made kubeconfig included,
// which the configuration never held) and the root's exports named in
// sensitiveExports, which the user declared secret. Nothing is trusted.
func (s *Security) LearnSnapshot(snap *engine.Snapshot, sensitiveExports []string) {
	if snap.Empty() {
		return
	}
	for _, in := range snap.Installations() {
		EachTarget(in.Targets, s.LearnTarget)
		for _, t := range in.TargetExports {
			s.LearnTarget(t)
		}
	}
	exports := snap.Exports()
	for _, name := range sensitiveExports {
		if v, ok := exports[name]; ok {
			s.Secrets.AddValue(v)
		}
	}
}

// EachTarget calls f for every target of ti.
func EachTarget(ti snapshot.TargetImports, f func(api.Target)) {
	for _, t := range ti.Single {
		f(t)
	}
	for _, list := range ti.Lists {
		for _, t := range list {
			f(t)
		}
	}
	for _, tm := range ti.Maps {
		for _, t := range tm {
			f(t)
		}
	}
}

// exportedAnnotation marks the targets an installation exports
// (target_exports) whose kubeconfig a blueprint wrote or changed: passing
// one on to another installation's imports.targets does not make it the
// user's. A target passed through unchanged is not marked.
const exportedAnnotation = "landscaper-terraform.io/exported-by-blueprint"

// MarkExported returns t annotated as exported by a blueprint.
func MarkExported(t api.Target) api.Target {
	annotations := make(map[string]string, len(t.Metadata.Annotations)+1)
	for k, v := range t.Metadata.Annotations {
		annotations[k] = v
	}
	annotations[exportedAnnotation] = "true"
	t.Metadata.Annotations = annotations
	return t
}

// TrustTarget trusts t when it is the user's own (targetOrigin; written:
// it was written in the configuration), and tells the pool why not
// otherwise, so the refusal says how to trust it.
func (s *Security) TrustTarget(t api.Target, written bool) {
	s.LearnTarget(t)
	if trusted, origin, remedy := s.targetOrigin(t, written); !trusted {
		var cfg api.KubernetesClusterConfig
		if s.pool != nil && t.Spec.Type == api.KubernetesClusterTargetType && json.Unmarshal(t.Spec.Config, &cfg) == nil && cfg.Kubeconfig != "" {
			s.pool.Explain(cfg.Kubeconfig, origin, remedy)
		}
		return
	}
	if t.Metadata.Annotations[api.KubeconfigFromProviderAnnotation] != "" && t.Metadata.Annotations[exportedAnnotation] == "" {
		// No credential inside; the pool fills in the provider's.
		if s.pool != nil {
			s.pool.AllowProviderKubeconfig(t)
		}
		return
	}
	if t.Metadata.Annotations[exportedAnnotation] != "" || t.Spec.Type != api.KubernetesClusterTargetType {
		return // not the user's kubeconfig: checked by the pool
	}
	var cfg api.KubernetesClusterConfig
	if json.Unmarshal(t.Spec.Config, &cfg) != nil || cfg.Kubeconfig == "" {
		return
	}
	if s.pool != nil {
		s.pool.Trust(cfg.Kubeconfig)
	}
}

// LearnTarget registers t's credentials as secrets: a kubeconfig's user
// credentials, or every value of another target type's config.
func (s *Security) LearnTarget(t api.Target) {
	if t.Spec.Type != api.KubernetesClusterTargetType {
		var v any
		_ = json.Unmarshal(t.Spec.Config, &v)
		s.Secrets.AddValue(v)
		return
	}
	var cfg api.KubernetesClusterConfig
	if json.Unmarshal(t.Spec.Config, &cfg) == nil && cfg.Kubeconfig != "" {
		s.Secrets.KubeconfigCredentials(cfg.Kubeconfig)
	}
}

// UserKubeconfig says whether t's kubeconfig is one the user gave.
func (s *Security) UserKubeconfig(t api.Target) bool {
	if s.pool != nil && s.pool.FromProvider(t) {
		return true
	}
	var cfg api.KubernetesClusterConfig
	if s.pool == nil || t.Spec.Type != api.KubernetesClusterTargetType || json.Unmarshal(t.Spec.Config, &cfg) != nil {
		return false
	}
	return s.pool.Trusted(cfg.Kubeconfig)
}

// HoldsSecret reports whether v (a decoded JSON value, the export name)
// holds a registered secret in any scalar: a string containing one or a
// URL's password, a number whose text is one (issue 32: a Secret import
// passed into an export), or a boolean at the key path of a Secret
// import's boolean (redact.Secrets.AddValueAt), the export's name counted
// as its first key.
func (s *Security) HoldsSecret(name string, v any) bool {
	values, bools := s.Secrets.Values(), s.Secrets.BoolPaths()
	var holds func(any, []string) bool
	holds = func(v any, at []string) bool {
		switch x := v.(type) {
		case nil:
			return false
		case bool:
			return redact.BoolAt(bools, at)
		case string:
			for _, secret := range values {
				if strings.Contains(x, secret) {
					return true
				}
			}
			return redact.HasURLPassword(x)
		case map[string]any:
			for k, e := range x {
				if holds(k, at) || holds(e, append(at[:len(at):len(at)], k)) {
					return true
				}
			}
			return false
		case []any:
			return slices.ContainsFunc(x, func(e any) bool { return holds(e, at) })
		case float64: // decoded JSON: the decimal form, as redact registers it
			return holds(strconv.FormatFloat(x, 'f', -1, 64), at)
		case json.Number:
			return holds(x.String(), at)
		}
		return holds(fmt.Sprint(v), at)
	}
	return holds(v, []string{name})
}
