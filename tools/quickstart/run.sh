#!/usr/bin/env bash
# The README's first command: builds the provider, applies examples/quickstart
# with a CLI configuration that needs no network, and shows what was deployed.
#
#   make quickstart                           the built-in local cluster and a
#                                             Terraform built by this project
#   make quickstart KUBECONFIG=~/.kube/config your own cluster (its current
#                                             context) and the terraform or tofu
#                                             on PATH; nothing else is built
#
# On your own cluster everything goes into one namespace of its own
# (QUICKSTART_NAMESPACE, default landscaper-quickstart), which destroy deletes,
# and the state into a Terraform workspace of that name, apart from the local
# cluster's.
set -euo pipefail

repo=$(cd "$(dirname "$0")/../.." && pwd)
cd "$repo"

# Set by the GNUmakefile only when KUBECONFIG was given on make's command line:
# a KUBECONFIG merely exported in the shell keeps the local cluster.
own_kubeconfig=${QUICKSTART_KUBECONFIG:-}
namespace=quickstart

if [ -z "$own_kubeconfig" ]; then
  tools/testenv/install.sh terraform etcd kube kwok
  make --no-print-directory cluster-up
  cli="$repo/.tools/bin/terraform"
  kubeconfig="$repo/.cluster/kubeconfig"
  workspace=default
else
  case $own_kubeconfig in "~/"*) own_kubeconfig="$HOME/${own_kubeconfig#"~/"}" ;; esac
  kubeconfig=$(cd "$(dirname "$own_kubeconfig")" && pwd)/$(basename "$own_kubeconfig")
  [ -r "$kubeconfig" ] || { echo "quickstart: cannot read the kubeconfig $kubeconfig" >&2; exit 1; }
  namespace=${QUICKSTART_NAMESPACE:-landscaper-quickstart}
  workspace=$namespace
  if cli=$(command -v terraform) || cli=$(command -v tofu); then
    echo "quickstart: using $cli and your cluster ($kubeconfig); building no cluster and no CLI"
  else
    echo "quickstart: no terraform or tofu on PATH: building Terraform (the cluster is yours)"
    tools/testenv/install.sh terraform
    cli="$repo/.tools/bin/terraform"
  fi
  # destroy deletes the namespace, so never take over one that exists and is
  # not the quickstart's own from an earlier run.
  state="$repo/examples/quickstart/terraform.tfstate.d/$workspace/terraform.tfstate"
  if [ ! -s "$state" ] && command -v kubectl >/dev/null &&
    kubectl --kubeconfig "$kubeconfig" get namespace "$namespace" >/dev/null 2>&1; then
    echo "quickstart: namespace $namespace already exists in your cluster and destroy would delete it;" >&2
    echo "            pick another one: make quickstart KUBECONFIG=... QUICKSTART_NAMESPACE=<name>" >&2
    exit 1
  fi
fi

provider_dir="$repo/.tools/provider"
mkdir -p "$provider_dir"
go build -o "$provider_dir/terraform-provider-landscaper" .

# dev_overrides makes the CLI use the binary just built, offline. Terraform
# and OpenTofu resolve the short source address to different registry hosts.
cli_config="$repo/.tools/quickstart.tfrc"
cat > "$cli_config" <<TFRC
provider_installation {
  dev_overrides {
    "registry.terraform.io/landscaper-terraform/landscaper" = "$provider_dir"
    "registry.opentofu.org/landscaper-terraform/landscaper" = "$provider_dir"
  }
  direct {}
}
TFRC
# TF_WORKSPACE keeps an own cluster's state apart; the CLI creates the
# workspace on first use.
export TF_CLI_CONFIG_FILE="$cli_config" TF_IN_AUTOMATION=1 TF_WORKSPACE="$workspace"
vars=(-var "kubeconfig_path=$kubeconfig" -var "namespace=$namespace")

cd examples/quickstart
"$cli" apply -auto-approve -no-color -input=false "${vars[@]}"
echo
echo "== $(basename "$cli") output"
"$cli" output -no-color
echo
if command -v kubectl >/dev/null; then
  echo "== deployed (kubectl --kubeconfig $kubeconfig)"
  kubectl --kubeconfig "$kubeconfig" get namespace "$namespace"
  kubectl --kubeconfig "$kubeconfig" get deployment,service,configmap -n "$namespace"
else
  echo "(install kubectl to look at the cluster: kubectl --kubeconfig $kubeconfig get all -n $namespace)"
fi
echo
printf 'Destroy with:\n  TF_CLI_CONFIG_FILE=%q TF_WORKSPACE=%q %q -chdir=examples/quickstart destroy -auto-approve -var kubeconfig_path=%q -var namespace=%q\n' \
  "$cli_config" "$workspace" "$cli" "$kubeconfig" "$namespace"
