package shared

import (
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	providerschema "github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
)

// The plan's view of what deploy items deploy (issue 24): the attributes
// here, the planning in installation_preview.go, the text itself in
// package preview.

// plan_diff modes.
const (
	PlanDiffLocal  = "local"
	PlanDiffServer = "server"
	PlanDiffOff    = "off"
)

const planDiffDescription = "How plans show what deploy items deploy in `deploy_item_objects`: `local` (the default) renders " +
	"each changed item's objects without a cluster (Helm charts included, with the capabilities recorded at the last apply) " +
	"and compares them with the last apply; `server` also asks each changed item's cluster for a server-side dry-run apply " +
	"of its objects and refresh reads the objects as they are, so the plan compares with what is really there — fields " +
	"other managers set, defaults, drift (a cluster that cannot be reached gives a warning and the local view); `off` " +
	"records nothing (recommended above about 5,000 deploy items or 10 MiB of objects per installation, see the guide)."

var planDiffValidators = []validator.String{stringvalidator.OneOf(PlanDiffLocal, PlanDiffServer, PlanDiffOff)}

// previewAttributes are the installation's attributes of the plan's view.
func previewAttributes() map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"plan_diff": schema.StringAttribute{Optional: true, Validators: planDiffValidators,
			MarkdownDescription: planDiffDescription + " Defaults to the provider's `plan_diff`. Changing it runs no job."},
		"deploy_item_objects": schema.StringAttribute{Computed: true,
			MarkdownDescription: "What each deploy item deploys: a JSON object of item path (as in `deploy_items`) → the " +
				"item's Kubernetes objects by header (`<apiVersion> <kind> <namespace>/<name>`) → the object's YAML in a " +
				"canonical form (keys ordered) as a list of its lines; an object of more than 500 lines as a list of chunks " +
				"`{lines = [...]}`. Items of deployers that cannot say show their configuration as a `DeployItem`. Plans " +
				"show it as `jsonencode({…})` with only the items and objects that change, and in a changed object only the " +
				"changed lines with one line of context; `terraform show -json` carries the same (`jsondecode()` reads it; " +
				"an object's YAML is its lines joined by newlines, see the guide \"Plans that show what will change\"). One " +
				"JSON string rather than a map keeps plans of thousands of items cheap. A " +
				"Secret shows its keys and `(sensitive value vN)`, N growing when the value changes; values from Secret " +
				"imports, sensitive exports, target credentials and URL credentials are masked the same way wherever they " +
				"appear. Values passed through `imports.data` from sensitive variables are not known to be secret " +
				"(Terraform does not tell providers): pass secrets as `imports.secrets`. Known at plan, also for a create, " +
				"unless a subinstallation imports exports known only after apply. Null with `plan_diff = \"off\"`."},
	}
}

// ProviderPlanDiffAttribute is the provider block's default plan_diff.
func ProviderPlanDiffAttribute(attrs map[string]providerschema.Attribute) {
	attrs["plan_diff"] = providerschema.StringAttribute{Optional: true, Validators: planDiffValidators,
		MarkdownDescription: planDiffDescription + " The default of every installation's `plan_diff`; `local` when unset."}
}
