package datasources

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/provider/shared"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/treegraph"
)

// The rendered installation data source's view of the tree (issue 24):
// each item's objects as landscaper_installation's deploy_item_objects
// shows them, and the picture of the tree.

func renderedPreviewAttributes(attrs map[string]schema.Attribute) {
	attrs["deploy_item_objects"] = schema.StringAttribute{Computed: true,
		MarkdownDescription: "What each deploy item deploys, as `landscaper_installation`'s `deploy_item_objects`: a JSON " +
			"object of item path (`<installation>/<name>`) → the item's objects in canonical YAML (Helm charts rendered " +
			"locally with default capabilities), secrets masked; every masked value shows as `(sensitive value v1)`."}
	attrs["mermaid"] = schema.StringAttribute{Computed: true,
		MarkdownDescription: "The installation tree as a Mermaid flowchart (GitHub, GitLab and the Terraform docs render it): " +
			"installations, their deploy executions and deploy items (type and target), `dependsOn` edges and the data " +
			"flowing between sibling installations; pending subinstallations drawn dashed."}
	attrs["dot"] = schema.StringAttribute{Computed: true,
		MarkdownDescription: "The same picture as `mermaid`, in Graphviz DOT (`dot -Tsvg`)."}
}

// renderedPreview fills the data source's objects and pictures of tree,
// the rendering of the installation at root.
func (d *RenderedInstallationDataSource) renderedPreview(ctx context.Context, m *renderedInstallationModel, root string, tree *engine.RenderedTree, diags *diag.Diagnostics) {
	picture := treegraph.FromRendered(root, tree)
	m.Mermaid = types.StringValue(treegraph.Mermaid(picture))
	m.DOT = types.StringValue(treegraph.DOT(picture))
	out := map[string]string{}
	if d.Data != nil {
		shown := d.Data.Instances(ctx).Preview(ctx, tree, nil, d.Data.PreviewOptions(shared.PlanDiffLocal, nil, nil, nil))
		d.Data.CollectTexts(shown, out, diags)
	}
	m.DeployItemObjects = shared.TextsValue(out, diags)
}
