#!/usr/bin/env bash
# Regenerates docs/ from templates/, examples/ and the provider's schema,
# offline: the schema comes from `providers schema -json` of the current
# Terraform (terraform-current) run against the provider built from this
# checkout through dev_overrides: it alone shows every kind of schema the
# provider has — provider functions (not in Terraform 1.5), actions and
# list resources (not in OpenTofu).
set -euo pipefail

repo=$(cd "$(dirname "$0")/../.." && pwd)
cd "$repo"
tools/testenv/install.sh terraform-current tfplugindocs >&2

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/plugin" "$tmp/workspace"
go build -o "$tmp/plugin/terraform-provider-landscaper" .

cat > "$tmp/cli.tfrc" <<TFRC
provider_installation {
  dev_overrides {
    "registry.terraform.io/landscaper-terraform/landscaper" = "$tmp/plugin"
  }
  direct {}
}
TFRC
cat > "$tmp/workspace/main.tf" <<'TF'
terraform {
  required_providers {
    landscaper = { source = "landscaper-terraform/landscaper" }
  }
}
TF
TF_CLI_CONFIG_FILE="$tmp/cli.tfrc" CHECKPOINT_DISABLE=1 .tools/bin/terraform-current -chdir="$tmp/workspace" providers schema -json > "$tmp/schema.raw.json"
# tfplugindocs looks the provider up by its short name.
sed 's#"registry.terraform.io/landscaper-terraform/landscaper"#"landscaper"#' "$tmp/schema.raw.json" > "$tmp/schema.json"

.tools/bin/tfplugindocs generate \
  --provider-dir "$repo" \
  --provider-name landscaper \
  --rendered-provider-name Landscaper \
  --providers-schema "$tmp/schema.json" \
  --website-temp-dir "$tmp/website"

# The picture of an installation tree in the plan-diff guide: the quickstart's
# echo installation as landscaper_rendered_installation draws it (DOT),
# rendered to SVG by tools/docs/graph (Graphviz compiled to WebAssembly, a
# module of its own). Rendering contacts no cluster, so the target's
# kubeconfig is a placeholder.
mkdir -p "$tmp/graph" docs/images
cat > "$tmp/graph/main.tf" <<TF
terraform {
  required_providers {
    landscaper = { source = "landscaper-terraform/landscaper" }
  }
}
data "landscaper_rendered_installation" "echo" {
  name      = "echo"
  blueprint = { path = "$repo/examples/quickstart/blueprints/echo-server" }
  imports = {
    targets = { cluster = jsonencode({
      apiVersion = "landscaper.gardener.cloud/v1alpha1", kind = "Target", metadata = { name = "local" }
      spec = { type = "landscaper.gardener.cloud/kubernetes-cluster", config = { kubeconfig = "apiVersion: v1\nkind: Config\n" } }
    }) }
    data = { namespace = "quickstart", replicas = 2, greeting = "hello from landscaper" }
  }
}
output "dot" { value = data.landscaper_rendered_installation.echo.dot }
TF
TF_CLI_CONFIG_FILE="$tmp/cli.tfrc" CHECKPOINT_DISABLE=1 .tools/bin/terraform-current -chdir="$tmp/graph" apply -auto-approve -no-color >/dev/null
TF_CLI_CONFIG_FILE="$tmp/cli.tfrc" CHECKPOINT_DISABLE=1 .tools/bin/terraform-current -chdir="$tmp/graph" output -raw dot > "$tmp/graph/echo.dot"
go run -C tools/docs/graph . < "$tmp/graph/echo.dot" > docs/images/quickstart-echo-tree.svg
