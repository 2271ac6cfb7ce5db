package shared

import (
	"context"
	"maps"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringdefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// InstallationSchemaVersion is the version of landscaper_installation's
// schema; see installationResource.UpgradeState. Version 1 (issue 34)
// holds each deploy item's objects in deploy_item_objects as lists of
// lines instead of one string per item; the attributes are version 0's.
const InstallationSchemaVersion = 1

var objectRefAttrs = map[string]schema.Attribute{
	"name":      schema.StringAttribute{Required: true, MarkdownDescription: "Name of the object."},
	"namespace": schema.StringAttribute{Required: true, MarkdownDescription: "Namespace of the object."},
	"key": schema.StringAttribute{Optional: true, MarkdownDescription: "Key whose value is imported " +
		"(decoded when it is JSON). Without a key, all keys are imported as a map."},
}

// SchemaOfInstallation is landscaper_installation's schema; the model → spec reader
// takes the attribute types from it too (installationAttrTypes).
func SchemaOfInstallation(ctx context.Context, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		Version: InstallationSchemaVersion,
		MarkdownDescription: "A Landscaper `Installation`: a blueprint with its imports. Create and update run Landscaper's " +
			"install flow inside `terraform apply` (Init → ObjectsCreated → Progressing → Completing → Succeeded), deploying " +
			"every deploy item of the blueprint and its subinstallations in dependency order; destroy runs the delete flow. " +
			"Exports are returned as attributes.",
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{Computed: true, MarkdownDescription: "`<namespace>/<name>`.",
				PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()}},
			"name": schema.StringAttribute{Required: true,
				MarkdownDescription: "Name of the installation. Deploy items are owned by `<namespace>/<name>/…`, so changing it replaces the installation.",
				PlanModifiers:       []planmodifier.String{stringplanmodifier.RequiresReplace()}},
			"namespace": schema.StringAttribute{Optional: true, Computed: true, Default: stringdefault.StaticString("default"),
				MarkdownDescription: "Namespace of the installation (Landscaper's `metadata.namespace`). Defaults to `default`.",
				PlanModifiers:       []planmodifier.String{stringplanmodifier.RequiresReplace()}},
			"blueprint": blueprintSourceResourceAttribute(),
			"manifest": schema.StringAttribute{Optional: true,
				MarkdownDescription: "A Landscaper `Installation` manifest (YAML or JSON, `landscaper.gardener.cloud/v1alpha1`) " +
					"instead of `blueprint`, `component_descriptor`, `context`, `imports` and the data mappings, which it replaces: the " +
					"installation is rendered and deployed exactly as if those were written in HCL. Its `metadata.name` must " +
					"equal `name` (and `metadata.namespace`, when set, `namespace`). Its `dataRef`s and target imports are read " +
					"from `manifest_objects` or else, as Landscaper reads them, from the provider's host cluster (a Target's `secretRef` " +
					"too); `secretRef` and `configMapRef` imports from the host cluster, " +
					"its `spec.context` from `manifest_objects` or else the host cluster. " +
					"The annotation `landscaper.gardener.cloud/delete-without-uninstall: \"true\"` acts like " +
					"`delete_without_uninstall`. A field or annotation that cannot be honoured is an error naming it; see the " +
					"guide \"Landscaper manifests as they are\".",
			},
			"manifest_objects": schema.StringAttribute{Optional: true, Sensitive: true,
				MarkdownDescription: "The DataObjects, Targets and Contexts `manifest` refers to, as YAML documents " +
					"(`landscaper_manifests`' `objects`, files joined with `---`, or `landscaper_target.x.target`, which is a " +
					"Target manifest in JSON). Objects it does not refer to are ignored. Sensitive: Targets hold credentials.",
			},
			"component_descriptor": componentSourceResourceAttribute(),
			"context":              schema.StringAttribute{Optional: true, MarkdownDescription: contextDescription},
			"imports":              ImportsSchema(),
			"import_data_mappings": schema.DynamicAttribute{Optional: true,
				MarkdownDescription: "Landscaper `importDataMappings`: import name → value, where strings may be Spiff " +
					"expressions over the other imports, e.g. `\"(( replicas * 2 ))\"`."},
			"export_data_mappings": schema.DynamicAttribute{Optional: true,
				MarkdownDescription: "Landscaper `exportDataMappings`: export name → value computed with Spiff from the " +
					"blueprint's exports (`(( exports.url ))` or `(( url ))`)."},
			"delete_without_uninstall": schema.BoolAttribute{Optional: true, Computed: true, Default: booldefault.StaticBool(false),
				MarkdownDescription: "On destroy, forget the installation but leave everything it deployed in the clusters " +
					"(Landscaper's `delete-without-uninstall` annotation)."},
			"timeouts": timeouts.Attributes(ctx, timeouts.Opts{Create: true, Update: true, Delete: true, Read: true}),
			"blueprint_digest": schema.StringAttribute{Computed: true,
				MarkdownDescription: "SHA-256 over the blueprint's files and the manifest digests of the component versions read " +
					"from registries. An edit of the blueprint that changes no deploy item (an export template, a schema), " +
					"or a component version tag that moved to other content, changes it, so the next apply runs a job."},
			"component_digests": schema.MapAttribute{Computed: true, ElementType: types.StringType,
				MarkdownDescription: componentDigestsDescription},
			"phase": schema.StringAttribute{Computed: true,
				MarkdownDescription: "Phase of the installation after the last job: `Succeeded`, `Failed` or `DeleteFailed`."},
			"job_id": schema.StringAttribute{Computed: true,
				MarkdownDescription: "ID of the last job (a new UUID per create or update)."},
			"job_id_finished": schema.StringAttribute{Computed: true,
				MarkdownDescription: "ID of the last job that finished; equal to `job_id` once the job is done."},
			"exports": schema.DynamicAttribute{Computed: true,
				MarkdownDescription: "The installation's data exports by name (after `export_data_mappings`), any type. " +
					"A plan keeps known the exports that follow from the objects it renders; only those the cluster decides " +
					"are known after apply (guide \"Plans that show what will change\", \"Exports at plan\")."},
			"sensitive_exports": schema.SetAttribute{Optional: true, ElementType: types.StringType,
				MarkdownDescription: "Names of data exports that hold secrets. They are returned in `sensitive_export_values`, " +
					"which Terraform never shows, instead of in `exports`."},
			"sensitive_export_values": schema.DynamicAttribute{Computed: true, Sensitive: true,
				MarkdownDescription: "The data exports named in `sensitive_exports`, by name."},
			"target_exports": schema.MapAttribute{Computed: true, Sensitive: true, ElementType: types.StringType,
				MarkdownDescription: "The installation's target exports by name, each a Target object as JSON, " +
					"ready for another installation's `imports.targets`."},
			"export_objects": exportObjectsAttribute(),
			"deploy_items": schema.MapAttribute{Computed: true, ElementType: types.StringType,
				MarkdownDescription: "Every deploy item of the installation tree: its path (`<installation path>/<item name>`, " +
					"e.g. `app/database/secret`, where the root installation's path is `name`, or `<namespace>.<name>` outside " +
					"the namespace `default`) → the hash of its rendered configuration. Plans show which items are added, " +
					"changed (a new hash) or removed. The hash is keyed per installation (HMAC-SHA256 with a random key kept in " +
					"private state, first 128 bits), so it cannot be used to guess secrets in the configuration; it is known " +
					"after apply when the installation is created. Type, target and dependencies of each item are shown by the " +
					"`landscaper_rendered_installation` data source."},
			"deploy_item_errors": schema.MapAttribute{Computed: true, ElementType: types.StringType,
				MarkdownDescription: "The deploy items that are not `Succeeded`, by path as in `deploy_items`: " +
					"`\"<phase>: <why>\"`, e.g. `\"Failed: …\"`, `\"DeleteFailed: …\"`, or `\"Drifted: …\"` for drift found by " +
					"refresh, which the plan then shows being repaired. Empty when every item succeeded."},
		},
	}
	resp.Schema.Attributes["reconcile_key"] = reconcileKeyAttribute()
	for name, a := range previewAttributes() {
		resp.Schema.Attributes[name] = a
	}
	maps.Copy(resp.Schema.Attributes, providerTargetAttributes())
}

func ImportsSchema() schema.SingleNestedAttribute {
	return schema.SingleNestedAttribute{Optional: true,
		MarkdownDescription: "The installation's imports, by the names the blueprint declares.",
		Attributes: withImportAttributes(map[string]schema.Attribute{
			"data": schema.DynamicAttribute{Optional: true,
				MarkdownDescription: "Data imports: an object of import name → any value."},
			"targets": schema.MapAttribute{Optional: true, Sensitive: true, ElementType: types.StringType,
				MarkdownDescription: "Target imports: import name → Target object JSON (`landscaper_target.x.target` " +
					"or another installation's `target_exports[...]`)."},
			"target_lists": schema.MapAttribute{Optional: true, Sensitive: true,
				ElementType:         types.ListType{ElemType: types.StringType},
				MarkdownDescription: "`targetList` imports: import name → list of Target object JSON."},
			"target_maps": schema.MapAttribute{Optional: true, Sensitive: true,
				ElementType:         types.MapType{ElemType: types.StringType},
				MarkdownDescription: "`targetMap` imports: import name → map of key → Target object JSON."},
			"secrets": schema.MapNestedAttribute{Optional: true,
				MarkdownDescription: "Data imports read from Secrets of the provider's host cluster, at plan and at apply: the plan is empty while they are unchanged and shows an update when a value changed (never the value). One that cannot be read at plan (not created yet, cluster unreachable) leaves the plan unknown and is read at apply.",
				NestedObject:        schema.NestedAttributeObject{Attributes: objectRefAttrs}},
			"config_maps": schema.MapNestedAttribute{Optional: true,
				MarkdownDescription: "Data imports read from ConfigMaps of the provider's host cluster, at plan and at apply, like `secrets`.",
				NestedObject:        schema.NestedAttributeObject{Attributes: objectRefAttrs}},
		}),
	}
}
