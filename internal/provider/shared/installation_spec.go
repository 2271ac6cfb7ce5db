package shared

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint/component"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint/template"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/hostaccess"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/redact"
)

// This file turns an installation's configuration into the engine's
// input, an engine.RootSpec: for plan, apply, the adoption job of a
// migration and the landscaper_rendered_installation data source alike.

// SpecInputs is what building a RootSpec draws on besides the
// configuration. The functions that need one of these get the struct;
// nothing travels in the context, so nothing can be missing there.
type SpecInputs struct {
	// host reads Secret and ConfigMap imports and the objects a manifest
	// refers to; nil where no host cluster may be read (the rendered
	// installation data source: errHostImportsAtPlan) or none is known
	// (validation: the value is unknown until plan).
	Host *hostaccess.HostCluster
	// components reads component versions from registries and the
	// Landscaper Contexts that scope them; nil before the provider is
	// configured.
	Components *hostaccess.ComponentAccess
	// security learns the configuration's own target kubeconfigs and
	// Secret imports, and bounds rendering (render_limits). Never nil.
	Security *Security
	// pins are the digests component versions are read at
	// (component_digests): strictly at apply and refresh, as a fallback
	// for an unreachable registry at plan.
	pins component.Pins
	// notes collects what reading component versions noticed without
	// failing, for the plan's warning; nil: only logged.
	Notes *RegistryNotes
	// scope is what the installation's Landscaper Context gives
	// (installationScope); nil when it has none.
	Scope *hostaccess.ComponentScope
	// context is the Context the installation uses (contextRefOf).
	context hostaccess.ContextRef
}

// Inputs are the SpecInputs of one request with the provider instance's
// host cluster, registry and security. Before the provider is configured
// (d nil: validation, a data source of a provider without configuration)
// nothing is read from a cluster or registry, and a security of this
// request alone learns what the request must mask.
func (d *ProviderData) Inputs(pins component.Pins) SpecInputs {
	if d == nil {
		return SpecInputs{Security: newSecurity(nil, SecuritySettings{Limits: template.DefaultLimits()}), pins: pins}
	}
	return SpecInputs{Host: d.Host, Components: d.components, Security: d.Security, pins: pins}
}

// registry reads component versions: the installation's Context's, with
// its pull secrets' credentials, or the provider's; nil before the
// provider is configured.
func (in SpecInputs) registry() *component.Registry {
	if in.Scope != nil {
		return in.Scope.Registry
	}
	if in.Components != nil {
		return in.Components.Registry
	}
	return nil
}

// RootName is the root installation's path, which prefixes every deploy
// item ID and so the ownership labels in the clusters: unique per
// Terraform installation resource.
func RootName(m InstallationModel) string {
	ns := m.Namespace.ValueString()
	if ns == "" || ns == "default" {
		return m.Name.ValueString()
	}
	return ns + "." + m.Name.ValueString()
}

// RootSpec builds the engine's input from m. Errors point at the
// attribute to fix (inputError).
func RootSpec(ctx context.Context, in SpecInputs, m InstallationModel) (engine.RootSpec, error) {
	spec, _, err := RootSpecOf(ctx, in, m)
	return spec, err
}

// RootSpecOf is RootSpec that also returns the Landscaper Context the
// installation uses (jobs read its Helm charts with it: instancesIn).
func RootSpecOf(ctx context.Context, in SpecInputs, m InstallationModel) (engine.RootSpec, hostaccess.ContextRef, error) {
	spec, err := buildRootSpec(ctx, &in, m)
	return spec, in.context, err
}

func buildRootSpec(ctx context.Context, in *SpecInputs, m InstallationModel) (engine.RootSpec, error) {
	spec := engine.RootSpec{Name: RootName(m)}
	if in.Security == nil { // inputs makes one; a struct literal may not
		return spec, errors.New("internal error: the configuration is read without the provider's security")
	}
	m, _, err := HclForm(ctx, m, in.Host) // a manifest becomes the HCL form's attributes
	if err != nil {
		return spec, err
	}
	if in.context, err = ContextRefOf(m); err != nil {
		return spec, err
	}
	if in.Scope, err = InstallationScope(ctx, in.Components, m); err != nil {
		return spec, err
	}
	bp, component, err := ResolveBlueprint(ctx, *in, m.Blueprint, m.ComponentDescriptor)
	if err != nil {
		return spec, err
	}
	// The request's context bounds rendering: cancelling plan or apply
	// (or its timeout) stops a runaway template; the render limits bound
	// each execution.
	spec.Blueprint, spec.Component = bp.WithLimits(in.Security.limits), component
	spec.Imports, err = ReadImports(ctx, m, in.Host)
	in.Security.TrustImports(ctx, m, spec.Imports)
	if err != nil {
		return spec, err
	}
	// The installation's own write-only forms, not all the provider
	// registered: its stored hashes must not depend on other installations.
	spec.WriteOnly = redact.WriteOnlyForms(WriteOnlyValue(ctx, m))
	if spec.ImportDataMappings, err = dataMappings(ctx, m.ImportDataMappings, path.Root("import_data_mappings")); err != nil {
		return spec, err
	}
	if spec.ExportDataMappings, err = dataMappings(ctx, m.ExportDataMappings, path.Root("export_data_mappings")); err != nil {
		return spec, err
	}
	return spec, nil
}

// ResolveBlueprint loads the blueprint and component descriptor that the
// `blueprint` and `component_descriptor` attributes name; errors point at
// the attribute to fix. The installation resource and the data sources
// share it.
func ResolveBlueprint(ctx context.Context, in SpecInputs, bpAttr, cdAttr types.Object) (*blueprint.Blueprint, *blueprint.Component, error) {
	src, err := blueprintSource(ctx, bpAttr)
	if err != nil {
		return nil, nil, err
	}
	comp, err := componentSource(ctx, in, cdAttr)
	if err != nil {
		return nil, nil, err
	}
	if src.Dir != "" {
		if _, statErr := os.Stat(src.Dir); statErr != nil {
			return nil, nil, AttrErr(path.Root("blueprint").AtName("path"), fmt.Errorf("blueprint directory: %w", statErr))
		}
	}
	bp, component, err := blueprint.Resolve(src, comp)
	if err != nil {
		return nil, nil, AttrErr(InputPath(err), err)
	}
	in.Components.Remember(component)
	return bp, component, nil
}

// AsObject decodes a nested attribute; false when it is null or unknown.
func AsObject(ctx context.Context, o types.Object, target any, p path.Path) (bool, error) {
	if o.IsNull() {
		return false, nil
	}
	if o.IsUnknown() {
		return false, ErrUnknownValue
	}
	if d := o.As(ctx, target, basetypes.ObjectAsOptions{}); d.HasError() {
		return false, AttrErr(p, fmt.Errorf("%v", d))
	}
	return true, nil
}

// blueprintSource reads a `blueprint` attribute (installation resource and
// data sources share its shape).
func blueprintSource(ctx context.Context, o types.Object) (blueprint.Source, error) {
	var bm blueprintSourceModel
	if _, err := AsObject(ctx, o, &bm, path.Root("blueprint")); err != nil {
		return blueprint.Source{}, err
	}
	var src blueprint.Source
	if bm.Path.IsUnknown() || bm.Inline.IsUnknown() || bm.Ref.IsUnknown() {
		return src, ErrUnknownValue
	}
	src.Dir = bm.Path.ValueString()
	if !bm.Inline.IsNull() {
		files := map[string]string{}
		if d := bm.Inline.ElementsAs(ctx, &files, false); d.HasError() {
			return src, ErrUnknownValue // an unknown file content
		}
		src.Inline = files
	}
	var ref blueprintRefModel
	if ok, err := AsObject(ctx, bm.Ref, &ref, path.Root("blueprint").AtName("ref")); err != nil {
		return src, err
	} else if ok {
		if ref.ResourceName.IsUnknown() {
			return src, ErrUnknownValue
		}
		src.ResourceName = ref.ResourceName.ValueString()
	}
	return src, nil
}

// componentSource reads a `component_descriptor` attribute; a `ref` is
// read from its registry.
func componentSource(ctx context.Context, in SpecInputs, o types.Object) (blueprint.ComponentSource, error) {
	var cm componentSourceModel
	ok, err := AsObject(ctx, o, &cm, path.Root("component_descriptor"))
	if err != nil || !ok {
		return blueprint.ComponentSource{}, err
	}
	if cm.Path.IsUnknown() || cm.Inline.IsUnknown() {
		return blueprint.ComponentSource{}, ErrUnknownValue
	}
	src := blueprint.ComponentSource{Dir: cm.Path.ValueString(), Inline: cm.Inline.ValueString(), Registry: in.registry()}
	ref, ok, err := componentRef(ctx, cm.Ref, in.Scope)
	if ok {
		src.Loaded, err = loadComponentRef(ctx, in, ref)
		err = AttrErr(path.Root("component_descriptor").AtName("ref"), err)
	}
	return src, err
}

// componentRef reads `component_descriptor.ref`; ok is false when it is
// not set. A ref without repository_context takes the one of scope, the
// installation's Landscaper Context.
func componentRef(ctx context.Context, o types.Object, scope *hostaccess.ComponentScope) (component.VersionRef, bool, error) {
	p := path.Root("component_descriptor").AtName("ref")
	var m componentRefModel
	ok, err := AsObject(ctx, o, &m, p)
	if err != nil || !ok {
		return component.VersionRef{}, false, err
	}
	var rc repositoryContextModel
	given, err := AsObject(ctx, m.RepositoryContext, &rc, p.AtName("repository_context"))
	if err != nil {
		return component.VersionRef{}, false, err
	}
	for _, v := range []types.String{m.ComponentName, m.Version, rc.Type, rc.BaseURL, rc.ComponentNameMapping} {
		if v.IsUnknown() {
			return component.VersionRef{}, false, ErrUnknownValue
		}
	}
	ref := component.VersionRef{
		Context: component.RepositorySpec{Type: rc.Type.ValueString(), BaseURL: rc.BaseURL.ValueString(),
			ComponentNameMapping: rc.ComponentNameMapping.ValueString()},
		Name:    m.ComponentName.ValueString(),
		Version: m.Version.ValueString(),
	}
	if !given {
		// Landscaper defaults it from the installation's Context.
		if scope == nil || scope.RepositoryContext == nil {
			return ref, false, AttrErr(p, errors.New("repository_context is not set, and the installation's context gives none "+
				"(set repository_context, or name a Context with a repositoryContext in `context`)"))
		}
		ref.Context = *scope.RepositoryContext
	}
	if err := ref.Context.Validate(); err != nil {
		return ref, false, AttrErr(p.AtName("repository_context"), err)
	}
	return ref, true, nil
}

// loadComponentRef reads a `component_descriptor.ref` from its registry,
// at the digest in.pins holds for it.
func loadComponentRef(ctx context.Context, in SpecInputs, ref component.VersionRef) (*component.Component, error) {
	reg := in.registry()
	if reg == nil {
		return nil, fmt.Errorf("component %s: the provider is not configured, so no registry can be read", ref)
	}
	seen := len(reg.Client.Warnings())
	ref = reg.Overwritten(ref) // the Context's ComponentVersionOverwrites
	c, err := reg.LoadPinned(ctx, ref, in.pins)
	for _, w := range reg.Client.Warnings()[seen:] {
		in.Security.Warn(ctx, w)
		in.Notes.add(w)
	}
	if err != nil {
		return nil, err
	}
	c.Definition = map[string]any{"ref": map[string]any{
		"repositoryContext": map[string]any{"type": ref.Context.Type, "baseUrl": ref.Context.BaseURL,
			"componentNameMapping": orDefault(ref.Context.ComponentNameMapping, component.MappingURLPath)},
		"componentName": ref.Name,
		"version":       ref.Version,
	}}
	return c, nil
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// dataMappings reads import_data_mappings / export_data_mappings.
func dataMappings(ctx context.Context, v types.Dynamic, p path.Path) (map[string]json.RawMessage, error) {
	g, err := GoValue(ctx, v.UnderlyingValue())
	if err != nil || g == nil {
		return nil, err
	}
	obj, ok := g.(map[string]any)
	if !ok {
		return nil, AttrErr(p, errors.New("must be an object of name → value"))
	}
	out := make(map[string]json.RawMessage, len(obj))
	for k, val := range obj {
		b, err := json.Marshal(val)
		if err != nil {
			return nil, AttrErr(p.AtMapKey(k), err)
		}
		out[k] = b
	}
	return out, nil
}
