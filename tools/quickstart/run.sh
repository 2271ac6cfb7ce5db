#!/usr/bin/env bash
# The README's first command: builds the provider and the Terraform CLI,
# starts the local cluster, applies examples/quickstart with a CLI
# configuration that needs no network, and shows what was deployed.
set -euo pipefail

repo=$(cd "$(dirname "$0")/../.." && pwd)
cd "$repo"

tools/testenv/install.sh terraform etcd kube kwok
make --no-print-directory cluster-up

provider_dir="$repo/.tools/provider"
mkdir -p "$provider_dir"
go build -o "$provider_dir/terraform-provider-landscaper" .

# dev_overrides makes Terraform use the binary just built, offline.
cli_config="$repo/.tools/quickstart.tfrc"
cat > "$cli_config" <<TFRC
provider_installation {
  dev_overrides {
    "registry.terraform.io/landscaper-terraform/landscaper" = "$provider_dir"
  }
  direct {}
}
TFRC
export TF_CLI_CONFIG_FILE="$cli_config" TF_IN_AUTOMATION=1
terraform="$repo/.tools/bin/terraform"
kubeconfig="$repo/.cluster/kubeconfig"

cd examples/quickstart
"$terraform" apply -auto-approve -no-color -input=false -var "kubeconfig_path=$kubeconfig"
echo
echo "== terraform output"
"$terraform" output -no-color
echo
if command -v kubectl >/dev/null; then
  echo "== deployed to the local cluster (kubectl --kubeconfig $kubeconfig)"
  kubectl --kubeconfig "$kubeconfig" get namespace quickstart
  kubectl --kubeconfig "$kubeconfig" get deployment,service,configmap -n quickstart
else
  echo "(install kubectl to look at the cluster: kubectl --kubeconfig $kubeconfig get all -n quickstart)"
fi
echo
echo "Destroy with: TF_CLI_CONFIG_FILE=$cli_config $terraform -chdir=examples/quickstart destroy -auto-approve -var kubeconfig_path=$kubeconfig"
