package shared

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/hostaccess"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/landscaperstate"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/landscaperyaml"
)

// An installation given as a Landscaper manifest (`manifest`, with its
// DataObjects, Targets and Contexts in `manifest_objects`) is translated
// into the attributes the HCL form would have — blueprint,
// component_descriptor, imports, data mappings — before anything else
// looks at it. Rendering, apply, refresh and destroy then run exactly as
// for an installation written in HCL, so both forms give the engine the
// same RootSpec and deploy the same items.

// HclForm returns m with the HCL form's attributes set from its
// manifest, and the warnings of the translation; m unchanged when it has
// no manifest. host reads the objects the manifest refers to but
// manifest_objects lacks (withHostObjects); nil where no host cluster is
// known yet (validation). Errors name the manifest's document and field.
func HclForm(ctx context.Context, m InstallationModel, host *hostaccess.HostCluster) (InstallationModel, []string, error) {
	if m.Manifest.IsNull() {
		return m, nil, nil
	}
	if m.Manifest.IsUnknown() || m.ManifestObjects.IsUnknown() || m.Name.IsUnknown() || m.Namespace.IsUnknown() {
		return m, nil, ErrUnknownValue
	}
	inst, err := landscaperyaml.Parse("manifest", m.Manifest.ValueString())
	if err != nil {
		return m, nil, AttrErr(path.Root("manifest"), err)
	}
	objects, err := landscaperyaml.Parse("manifest_objects", m.ManifestObjects.ValueString())
	if err != nil {
		return m, nil, AttrErr(path.Root("manifest_objects"), err)
	}
	namespace := m.Namespace.ValueString()
	if namespace == "" {
		namespace = "default"
	}
	if objects, err = withHostObjects(ctx, host, inst, objects, namespace); err != nil {
		return m, nil, err
	}
	root, err := landscaperyaml.Convert(inst, objects, m.Name.ValueString(), namespace)
	if err != nil {
		return m, nil, AttrErr(path.Root("manifest"), err)
	}
	t := InstallationAttrTypes(ctx)
	b := hclBuilder{ctx: ctx, types: t}
	m.Blueprint = b.blueprint(root)
	m.ComponentDescriptor = b.component(root)
	m.Context = types.StringNull() // the default Context, if the host cluster has one
	switch {
	case root.Context != "":
		m.Context = types.StringValue(root.Context)
	case root.ContextInObjects:
		m.Context = types.StringValue("") // none: the one given as a manifest did its part
	}
	m.Imports = b.imports(root)
	m.ImportDataMappings = b.mappings(root.ImportDataMappings)
	m.ExportDataMappings = b.mappings(root.ExportDataMappings)
	if b.err != nil {
		return m, nil, AttrErr(path.Root("manifest"), b.err)
	}
	return m, root.Warnings, nil
}

// ValidateManifestForm checks an installation given as a manifest: no
// attribute the manifest replaces is set, and the manifest translates
// (errors and warnings on manifest; values not known yet are skipped).
func ValidateManifestForm(ctx context.Context, m InstallationModel, diags *diag.Diagnostics) {
	for _, replaced := range []struct {
		name string
		v    attr.Value
	}{
		{"blueprint", m.Blueprint}, {"component_descriptor", m.ComponentDescriptor}, {"context", m.Context}, {"imports", m.Imports},
		{"import_data_mappings", m.ImportDataMappings}, {"export_data_mappings", m.ExportDataMappings},
	} {
		if !replaced.v.IsNull() {
			AddError(diags, nil, "Invalid Attribute Combination", AttrMsg(path.Root(replaced.name), fmt.Sprintf(
				"manifest gives the installation's blueprint, component descriptor, context, imports and data mappings; remove %s "+
					"(or manifest, to write the installation in HCL)", replaced.name)))
		}
	}
	_, warnings, err := HclForm(ctx, m, nil)
	for _, w := range warnings {
		AddWarning(diags, nil, "Landscaper Manifest Field Ignored", AttrMsg(path.Root("manifest"), w))
	}
	if err != nil && !errors.Is(err, ErrUnknownValue) {
		AddError(diags, nil, "Invalid Landscaper Manifest", err)
	}
}

// ManifestDeletesWithoutUninstall reports the manifest's
// delete-without-uninstall annotation, which destroy honours like the
// delete_without_uninstall attribute.
func ManifestDeletesWithoutUninstall(m InstallationModel) bool {
	if m.Manifest.IsNull() || m.Manifest.IsUnknown() {
		return false
	}
	inst, err := landscaperyaml.Parse("manifest", m.Manifest.ValueString())
	if err != nil {
		return false
	}
	docs := inst.Documents(landscaperyaml.KindInstallation)
	return len(docs) == 1 && docs[0].Annotation(landscaperyaml.DeleteWithoutUninstallAnnotation) == "true"
}

// InstallationAttrTypes are the attribute types of landscaper_installation.
func InstallationAttrTypes(ctx context.Context) map[string]attr.Type {
	var resp resource.SchemaResponse
	SchemaOfInstallation(ctx, &resp)
	if o, ok := resp.Schema.Type().(basetypes.ObjectType); ok {
		return o.AttrTypes
	}
	return nil
}

// hclBuilder builds attribute values; the first error sticks.
type hclBuilder struct {
	ctx   context.Context
	types map[string]attr.Type
	err   error
}

func (b *hclBuilder) objectType(attrTypes map[string]attr.Type, name string) map[string]attr.Type {
	if o, ok := attrTypes[name].(basetypes.ObjectType); ok {
		return o.AttrTypes
	}
	b.fail(fmt.Errorf("internal error: attribute %s is not an object", name))
	return nil
}

func (b *hclBuilder) fail(err error) {
	if b.err == nil {
		b.err = err
	}
}

func (b *hclBuilder) object(attrTypes map[string]attr.Type, v any) types.Object {
	o, d := types.ObjectValueFrom(b.ctx, attrTypes, v)
	if d.HasError() {
		b.fail(fmt.Errorf("internal error: %v", d))
	}
	return o
}

func (b *hclBuilder) mapOf(elem attr.Type, v any) types.Map {
	m, d := types.MapValueFrom(b.ctx, elem, v)
	if d.HasError() {
		b.fail(fmt.Errorf("internal error: %v", d))
	}
	return m
}

func (b *hclBuilder) blueprint(root *landscaperyaml.Root) types.Object {
	t := b.objectType(b.types, "blueprint")
	refType := b.objectType(t, "ref")
	src := blueprintSourceModel{Path: types.StringNull(), Inline: types.MapNull(types.StringType), Ref: types.ObjectNull(refType)}
	if root.Blueprint.ResourceName != "" {
		src.Ref = b.object(refType, blueprintRefModel{ResourceName: types.StringValue(root.Blueprint.ResourceName)})
	} else {
		src.Inline = b.mapOf(types.StringType, root.Blueprint.Inline)
	}
	return b.object(t, src)
}

func (b *hclBuilder) component(root *landscaperyaml.Root) types.Object {
	t := b.objectType(b.types, "component_descriptor")
	refType := b.objectType(t, "ref")
	switch {
	case root.Component.Inline != "":
		return b.object(t, componentSourceModel{Path: types.StringNull(), Inline: types.StringValue(root.Component.Inline), Ref: types.ObjectNull(refType)})
	case root.Component.Ref != nil:
		ref := root.Component.Ref
		if ref.Context.SubPath != "" {
			b.fail(errors.New("spec.componentDescriptor.ref.repositoryContext.subPath is not supported"))
		}
		mapping := types.StringNull()
		if ref.Context.ComponentNameMapping != "" {
			mapping = types.StringValue(ref.Context.ComponentNameMapping)
		}
		repoType := b.objectType(refType, "repository_context")
		repo := types.ObjectNull(repoType) // the Context gives it
		if ref.Context.Type != "" {
			repo = b.object(repoType, repositoryContextModel{
				Type: types.StringValue(ref.Context.Type), BaseURL: types.StringValue(ref.Context.BaseURL), ComponentNameMapping: mapping})
		}
		return b.object(t, componentSourceModel{Path: types.StringNull(), Inline: types.StringNull(),
			Ref: b.object(refType, componentRefModel{RepositoryContext: repo, ComponentName: types.StringValue(ref.Name), Version: types.StringValue(ref.Version)})})
	}
	return types.ObjectNull(t)
}

func (b *hclBuilder) imports(root *landscaperyaml.Root) types.Object {
	t := b.objectType(b.types, "imports")
	data, err := DynamicValue(root.Imports.Data)
	if err != nil {
		b.fail(err)
	}
	targetJSON := func(tg api.Target) string {
		j, err := json.Marshal(tg)
		if err != nil {
			b.fail(err)
		}
		return string(j)
	}
	targets := map[string]string{}
	for name, tg := range root.Imports.Targets {
		targets[name] = targetJSON(tg)
	}
	lists := map[string][]string{}
	for name, list := range root.Imports.TargetLists {
		lists[name] = []string{}
		for _, tg := range list {
			lists[name] = append(lists[name], targetJSON(tg))
		}
	}
	maps := map[string]map[string]string{}
	for name, m := range root.Imports.TargetMaps {
		maps[name] = map[string]string{}
		for key, tg := range m {
			maps[name][key] = targetJSON(tg)
		}
	}
	var refType attr.Type = types.ObjectType{}
	if mt, ok := t["secrets"].(basetypes.MapType); ok {
		refType = mt.ElemType
	}
	refs := map[string]map[string]ObjectRefModel{"Secret": {}, "ConfigMap": {}}
	for _, h := range root.HostImports {
		key := types.StringNull()
		if h.Key != "" {
			key = types.StringValue(h.Key)
		}
		refs[h.Kind][h.Import] = ObjectRefModel{Name: types.StringValue(h.Name), Namespace: types.StringValue(h.Namespace), Key: key}
	}
	return b.object(t, ImportsModel{
		Data:        data,
		Targets:     b.mapOf(types.StringType, targets),
		TargetLists: b.mapOf(types.ListType{ElemType: types.StringType}, lists),
		TargetMaps:  b.mapOf(types.MapType{ElemType: types.StringType}, maps),
		Secrets:     b.mapOf(refType, refs["Secret"]),
		ConfigMaps:  b.mapOf(refType, refs["ConfigMap"]),
	})
}

func (b *hclBuilder) mappings(m map[string]json.RawMessage) types.Dynamic {
	if len(m) == 0 {
		return types.DynamicNull()
	}
	plain := make(map[string]any, len(m))
	for k, raw := range m {
		var v any
		if err := json.Unmarshal(raw, &v); err != nil {
			b.fail(fmt.Errorf("data mapping %s: %w", k, err))
		}
		plain[k] = v
	}
	v, err := DynamicValue(plain)
	if err != nil {
		b.fail(err)
	}
	return v
}

// A manifest's DataObjects and Targets that manifest_objects does not
// hold are read from the host cluster, in the installation's namespace,
// as Landscaper reads them. This is what an imported installation relies
// on: its configuration is only the Installation manifest (generated by
// `terraform plan -generate-config-out`), and its inputs stay where
// Landscaper kept them, so neither the configuration nor the plan ever
// holds a kubeconfig. They are read as the migration reads them
// (landscaperstate.ObjectsManifest): a Target whose config is in a Secret
// (spec.secretRef) is resolved in memory into a Target with that config.

// hostObjectsSource names the objects read from the host cluster in errors.
const hostObjectsSource = "host cluster"

// withHostObjects returns objects with the DataObjects and Targets the
// manifest inst refers to but objects lacks, read from host. Without a
// host cluster (validation, before the provider is configured) a missing
// object makes the value unknown (errUnknownValue) rather than wrong:
// plan reads it.
func withHostObjects(ctx context.Context, host *hostaccess.HostCluster, inst, objects *landscaperyaml.Set, namespace string) (*landscaperyaml.Set, error) {
	missing := landscaperyaml.Missing(inst, objects, namespace)
	if len(missing) == 0 {
		return objects, nil
	}
	if host == nil {
		return objects, ErrUnknownValue
	}
	if !host.Settings.Configured {
		return objects, nil // Convert names the object that is missing
	}
	client, err := host.DynamicClient()
	if err != nil {
		return objects, AttrErr(path.Root("manifest"), &HostReadError{fmt.Errorf("host cluster: %w", err)})
	}
	named := make([]landscaperstate.Named, len(missing))
	for i, ref := range missing {
		named[i] = landscaperstate.Named{Kind: ref.Kind, Name: ref.Name}
	}
	docs, err := landscaperstate.ObjectsManifest(ctx, client, namespace, named)
	if err != nil {
		return objects, AttrErr(path.Root("manifest"), &HostReadError{err})
	}
	more, err := landscaperyaml.Parse(hostObjectsSource, docs)
	if err != nil {
		return objects, AttrErr(path.Root("manifest"), err)
	}
	return objects.With(more)
}
