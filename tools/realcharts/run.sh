#!/usr/bin/env bash
# Installs charts you fetched yourself through a blueprint with chart.path,
# as a new user would, and reports what a second plan says: "empty" (exit
# code 0 of plan -detailed-exitcode) or the changes it proposes. It fetches
# nothing; charts are given as directories and are copied next to a
# generated blueprint in a scratch directory.
#
#   tools/realcharts/run.sh PROVIDER_BINARY KUBECONFIG CHART_DIR...
#
# Uses .tools/bin/terraform (tools/testenv/install.sh terraform). Each chart
# goes into a namespace of its own (rc-<chart name>), destroyed at the end.
# Timings (apply, second plan) and the plan's first drift line are printed
# as one line per chart; logs stay in the scratch directory it names.
set -euo pipefail

repo=$(cd "$(dirname "$0")/../.." && pwd)
[ $# -ge 3 ] || { sed -n 2,12p "$0" >&2; exit 2; }
provider=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
kubeconfig=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")
shift 2
cli="$repo/.tools/bin/terraform"
scratch=$(mktemp -d "${TMPDIR:-/tmp}/realcharts.XXXXXX")
mkdir -p "$scratch/provider"
cp "$provider" "$scratch/provider/terraform-provider-landscaper"
cat > "$scratch/tfrc" <<TFRC
provider_installation {
  dev_overrides {
    "registry.terraform.io/landscaper-terraform/landscaper" = "$scratch/provider"
  }
  direct {}
}
TFRC
export TF_CLI_CONFIG_FILE="$scratch/tfrc" TF_IN_AUTOMATION=1
echo "scratch: $scratch"

for chart in "$@"; do
  name=$(basename "$chart")
  ns="rc-$name"
  dir="$scratch/$name"
  mkdir -p "$dir/blueprint/charts"
  cp -r "$chart" "$dir/blueprint/charts/$name"
  cat > "$dir/blueprint/blueprint.yaml" <<YAML
apiVersion: landscaper.gardener.cloud/v1alpha1
kind: Blueprint
jsonSchemaVersion: https://json-schema.org/draft/2019-09/schema
imports:
- name: cluster
  targetType: landscaper.gardener.cloud/kubernetes-cluster
deployExecutions:
- name: main
  type: GoTemplate
  file: /deploy-execution.yaml
YAML
  cat > "$dir/blueprint/deploy-execution.yaml" <<YAML
deployItems:
- name: chart
  type: landscaper.gardener.cloud/helm
  target: {import: cluster}
  timeout: 10m
  config:
    apiVersion: helm.deployer.landscaper.gardener.cloud/v1alpha1
    kind: ProviderConfiguration
    name: $name
    namespace: $ns
    createNamespace: true
    chart:
      path: charts/$name
YAML
  cat > "$dir/main.tf" <<HCL
terraform {
  required_providers {
    landscaper = { source = "landscaper-terraform/landscaper" }
  }
}
provider "landscaper" {}
resource "landscaper_target" "cluster" {
  name       = "local"
  kubeconfig = file("$kubeconfig")
}
resource "landscaper_installation" "chart" {
  name      = "$name"
  blueprint = { path = "\${path.module}/blueprint" }
  imports   = { targets = { cluster = landscaper_target.cluster.target } }
}
HCL
  start=$(date +%s.%N)
  if "$cli" -chdir="$dir" apply -auto-approve -no-color -input=false > "$dir/apply.log" 2>&1; then
    applied=ok
  else
    applied=failed
  fi
  apply_s=$(echo "$(date +%s.%N) - $start" | bc)
  start=$(date +%s.%N)
  set +e
  "$cli" -chdir="$dir" plan -detailed-exitcode -no-color -input=false > "$dir/plan2.log" 2>&1
  rc=$?
  set -e
  plan_s=$(echo "$(date +%s.%N) - $start" | bc)
  case $rc in
    0) second=empty ;;
    2) second="changes: $(grep -m1 -o 'Drifted: [^"]*' "$dir/plan2.log" || grep -m1 'Plan:' "$dir/plan2.log")" ;;
    *) second="plan failed: $(grep -m1 'Error' "$dir/plan2.log")" ;;
  esac
  "$cli" -chdir="$dir" destroy -auto-approve -no-color -input=false > "$dir/destroy.log" 2>&1 && destroyed=ok || destroyed=failed
  printf '%s: apply %s (%.1fs), second plan %s (%.1fs), destroy %s\n' "$name" "$applied" "$apply_s" "$second" "$plan_s" "$destroyed"
done
