package provider

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint"
)

// installationModel is landscaper_installation as Terraform holds it.
type installationModel struct {
	ID                     types.String   `tfsdk:"id"`
	Name                   types.String   `tfsdk:"name"`
	Namespace              types.String   `tfsdk:"namespace"`
	Blueprint              types.Object   `tfsdk:"blueprint"`
	ComponentDescriptor    types.Object   `tfsdk:"component_descriptor"`
	Context                types.String   `tfsdk:"context"`
	Manifest               types.String   `tfsdk:"manifest"`
	ManifestObjects        types.String   `tfsdk:"manifest_objects"`
	Imports                types.Object   `tfsdk:"imports"`
	ImportDataMappings     types.Dynamic  `tfsdk:"import_data_mappings"`
	ExportDataMappings     types.Dynamic  `tfsdk:"export_data_mappings"`
	DeleteWithoutUninstall types.Bool     `tfsdk:"delete_without_uninstall"`
	Timeouts               timeouts.Value `tfsdk:"timeouts"`
	BlueprintDigest        types.String   `tfsdk:"blueprint_digest"`
	ComponentDigests       types.Map      `tfsdk:"component_digests"`
	Phase                  types.String   `tfsdk:"phase"`
	JobID                  types.String   `tfsdk:"job_id"`
	JobIDFinished          types.String   `tfsdk:"job_id_finished"`
	Exports                types.Dynamic  `tfsdk:"exports"`
	SensitiveExports       types.Set      `tfsdk:"sensitive_exports"`
	SensitiveExportValues  types.Dynamic  `tfsdk:"sensitive_export_values"`
	TargetExports          types.Map      `tfsdk:"target_exports"`
	DeployItems            types.Map      `tfsdk:"deploy_items"`
	DeployItemErrors       types.Map      `tfsdk:"deploy_item_errors"`
}

type blueprintSourceModel struct {
	Path   types.String `tfsdk:"path"`
	Inline types.Map    `tfsdk:"inline"`
	Ref    types.Object `tfsdk:"ref"`
}

type blueprintRefModel struct {
	ResourceName types.String `tfsdk:"resource_name"`
}

type componentSourceModel struct {
	Path   types.String `tfsdk:"path"`
	Inline types.String `tfsdk:"inline"`
	Ref    types.Object `tfsdk:"ref"`
}

type importsModel struct {
	Data        types.Dynamic `tfsdk:"data"`
	Targets     types.Map     `tfsdk:"targets"`
	TargetLists types.Map     `tfsdk:"target_lists"`
	TargetMaps  types.Map     `tfsdk:"target_maps"`
	Secrets     types.Map     `tfsdk:"secrets"`
	ConfigMaps  types.Map     `tfsdk:"config_maps"`
}

type objectRefModel struct {
	Name      types.String `tfsdk:"name"`
	Namespace types.String `tfsdk:"namespace"`
	Key       types.String `tfsdk:"key"`
}

// asObject decodes a nested attribute; false when it is null or unknown.
func asObject(ctx context.Context, o types.Object, target any, p path.Path) (bool, error) {
	if o.IsNull() {
		return false, nil
	}
	if o.IsUnknown() {
		return false, errUnknownValue
	}
	if d := o.As(ctx, target, basetypes.ObjectAsOptions{}); d.HasError() {
		return false, attrErr(p, fmt.Errorf("%v", d))
	}
	return true, nil
}

// blueprintSource reads a `blueprint` attribute (installation resource and
// data sources share its shape).
func blueprintSource(ctx context.Context, o types.Object) (blueprint.Source, error) {
	var bm blueprintSourceModel
	if _, err := asObject(ctx, o, &bm, path.Root("blueprint")); err != nil {
		return blueprint.Source{}, err
	}
	var src blueprint.Source
	if bm.Path.IsUnknown() || bm.Inline.IsUnknown() || bm.Ref.IsUnknown() {
		return src, errUnknownValue
	}
	src.Dir = bm.Path.ValueString()
	if !bm.Inline.IsNull() {
		files := map[string]string{}
		if d := bm.Inline.ElementsAs(ctx, &files, false); d.HasError() {
			return src, errUnknownValue // an unknown file content
		}
		src.Inline = files
	}
	var ref blueprintRefModel
	if ok, err := asObject(ctx, bm.Ref, &ref, path.Root("blueprint").AtName("ref")); err != nil {
		return src, err
	} else if ok {
		if ref.ResourceName.IsUnknown() {
			return src, errUnknownValue
		}
		src.ResourceName = ref.ResourceName.ValueString()
	}
	return src, nil
}

// componentSource reads a `component_descriptor` attribute.
func componentSource(ctx context.Context, o types.Object) (blueprint.ComponentSource, error) {
	var cm componentSourceModel
	ok, err := asObject(ctx, o, &cm, path.Root("component_descriptor"))
	if err != nil || !ok {
		return blueprint.ComponentSource{}, err
	}
	if cm.Path.IsUnknown() || cm.Inline.IsUnknown() {
		return blueprint.ComponentSource{}, errUnknownValue
	}
	src := blueprint.ComponentSource{Dir: cm.Path.ValueString(), Inline: cm.Inline.ValueString(), Registry: registryFrom(ctx)}
	ref, ok, err := componentRef(ctx, cm.Ref)
	if ok {
		src.Loaded, err = loadComponentRef(ctx, ref)
		err = attrErr(path.Root("component_descriptor").AtName("ref"), err)
	}
	return src, err
}

// dataMappings reads import_data_mappings / export_data_mappings.
func dataMappings(ctx context.Context, v types.Dynamic, p path.Path) (map[string]json.RawMessage, error) {
	g, err := goValue(ctx, v.UnderlyingValue())
	if err != nil || g == nil {
		return nil, err
	}
	obj, ok := g.(map[string]any)
	if !ok {
		return nil, attrErr(p, errors.New("must be an object of name → value"))
	}
	out := make(map[string]json.RawMessage, len(obj))
	for k, val := range obj {
		b, err := json.Marshal(val)
		if err != nil {
			return nil, attrErr(p.AtMapKey(k), err)
		}
		out[k] = b
	}
	return out, nil
}

// parseTarget decodes one Target object JSON from an import attribute.
func parseTarget(s string, p path.Path) (api.Target, error) {
	var t api.Target
	if err := json.Unmarshal([]byte(s), &t); err != nil {
		// The JSON holds credentials: report where, not what.
		return t, attrErr(p, errors.New("not a Target object (pass landscaper_target.<name>.target or a target export)"))
	}
	if t.Spec.Type == "" {
		return t, attrErr(p, errors.New("the Target object has no spec.type"))
	}
	return t, nil
}
