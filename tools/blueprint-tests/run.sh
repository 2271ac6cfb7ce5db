#!/usr/bin/env bash
# `make test-blueprints`: runs the blueprint unit tests of
# examples/blueprint-tests (`<cli> test`) with every CLI of .tools/bin that
# has the test command (Terraform >= 1.6, OpenTofu): offline, no cluster.
# The provider just built is served from a filesystem mirror, as a user's
# `init` would install it from the Registry.
set -euo pipefail

repo=$(cd "$(dirname "$0")/../.." && pwd)
cd "$repo"
work=$(mktemp -d -t blueprint-tests.XXXXXX)
trap 'rm -rf "$work"' EXIT

version=0.0.1
platform="$(go env GOOS)_$(go env GOARCH)"
for host in registry.terraform.io registry.opentofu.org; do
  dir="$work/mirror/$host/landscaper-terraform/landscaper/$version/$platform"
  mkdir -p "$dir"
  if [ "$host" = registry.terraform.io ]; then
    go build -o "$dir/terraform-provider-landscaper_v$version" .
    first=$dir
  else
    cp "$first/terraform-provider-landscaper_v$version" "$dir/"
  fi
done
cat >"$work/cli.tfrc" <<TFRC
provider_installation {
  filesystem_mirror {
    path    = "$work/mirror"
  }
}
TFRC
export TF_CLI_CONFIG_FILE="$work/cli.tfrc" TF_IN_AUTOMATION=1 CHECKPOINT_DISABLE=1

ran=0
for name in terraform terraform-current tofu; do
  cli="$repo/.tools/bin/$name"
  [ -x "$cli" ] || { echo "test-blueprints: $name is missing in .tools/bin: run make tools" >&2; exit 1; }
  v=$("$cli" version -json | sed -n 's/.*"terraform_version": *"\([0-9.]*\).*/\1/p')
  minor=$(echo "$v" | cut -d. -f2)
  if [ "${name%-current}" = terraform ] && [ "$(echo "$v" | cut -d. -f1)" = 1 ] && [ "$minor" -lt 6 ]; then
    echo "test-blueprints: terraform $v has no 'terraform test' (Terraform >= 1.6): not run with it"
    continue
  fi
  echo "test-blueprints: $name $v test examples/blueprint-tests"
  rm -rf "$work/module" && cp -r examples/blueprint-tests "$work/module"
  (cd "$work/module" && "$cli" init -no-color -input=false >/dev/null && "$cli" test -no-color)
  ran=$((ran + 1))
done
[ "$ran" -gt 0 ] || { echo "test-blueprints: no CLI with a test command" >&2; exit 1; }
