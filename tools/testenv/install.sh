#!/usr/bin/env bash
# Builds the command-line tools the tests and docs need from the Go module
# proxy alone (no binary downloads), caches each one outside the clone under
# $TOOLS_CACHE/<name>-<version>/ and links them into .tools/bin of the clone.
# A tool whose cached binary exists is not rebuilt, so a warm run costs nothing.
#
# usage: tools/testenv/install.sh [tool ...]   (default: all)
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
cache=${TOOLS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/terraform-provider-landscaper}
bindir="$repo/.tools/bin"
mkdir -p "$cache" "$bindir"

TERRAFORM_VERSION=1.5.7
# a current Terraform, built from its module zip (terraform/build.sh), with
# the zip's checksum pinned; the newest the module proxy serves
TERRAFORM_CURRENT_VERSION=1.16.4
TERRAFORM_CURRENT_SUM=h1:0yyJB6OufO0kqoNg95TGhf+41NsG77th1DPSnKBD878=
OPENTOFU_VERSION=1.12.6
KUBE_VERSION=1.32.3
ETCD_VERSION=3.5.17
KWOK_VERSION=0.6.1
TFPLUGINDOCS_VERSION=0.24.0
GOLANGCI_VERSION=2.6.2
# the last release that builds with Go 1.26; about 4 minutes cold
GORELEASER_VERSION=2.12.7
# the CNCF distribution registry: a real OCI registry on loopback for tests
REGISTRY_VERSION=3.1.2
# PostgreSQL for the pg state-backend test: Debian's packages, unpacked
# (postgres/unpack.sh); cached by the package version Debian serves
POSTGRES_MAJOR=15

export GONOSUMDB=k8s.io GOFLAGS=-mod=mod CGO_ENABLED=0

# build NAME VERSION BINARY... -- COMMAND: runs COMMAND with $out set to the
# cache folder unless every BINARY is already there, then links the binaries.
# BINARY=LINK links BINARY as LINK (two versions of one tool side by side).
build() {
  local name=$1 version=$2; shift 2
  local bins=()
  while [ "$1" != "--" ]; do bins+=("$1"); shift; done; shift
  local out="$cache/$name-$version"
  # Two runs at once (a CI run beside a developer's `make tools`) would
  # build into the same .tmp folder and remove each other's work: the
  # second waits for the first and then finds the tool built.
  local lock=
  if command -v flock >/dev/null; then
    exec {lock}>"$out.lock" && flock "$lock"
  fi
  local missing=0
  for b in "${bins[@]}"; do [ -x "$out/${b%%=*}" ] || missing=1; done
  if [ $missing = 1 ]; then
    echo "building $name $version into $out" >&2
    local start=$SECONDS
    rm -rf "$out.tmp" && mkdir -p "$out.tmp"
    out="$out.tmp" "$@"
    rm -rf "$cache/$name-$version" && mv "$out.tmp" "$cache/$name-$version"
    out="$cache/$name-$version"
    echo "built $name $version in $((SECONDS - start))s" >&2
  fi
  for b in "${bins[@]}"; do ln -sfn "$out/${b%%=*}" "$bindir/${b#*=}"; done
  if [ -n "$lock" ]; then exec {lock}>&-; fi
}

kube_ldflags="-X k8s.io/component-base/version.gitVersion=v$KUBE_VERSION -X k8s.io/component-base/version.gitMajor=${KUBE_VERSION%%.*} -X k8s.io/component-base/version.gitMinor=$(echo $KUBE_VERSION | cut -d. -f2)"

tool_terraform() {
  build terraform $TERRAFORM_VERSION terraform -- \
    sh -c 'GOBIN="$out" go install github.com/hashicorp/terraform@v'$TERRAFORM_VERSION
}
tool_terraform-current() {
  build terraform $TERRAFORM_CURRENT_VERSION terraform=terraform-current -- \
    sh -c '"$0" '$TERRAFORM_CURRENT_VERSION' '$TERRAFORM_CURRENT_SUM' "$out/terraform"' "$here/terraform/build.sh"
}
tool_tofu() {
  build opentofu $OPENTOFU_VERSION tofu -- \
    sh -c 'cd "'"$here"'/opentofu" && go build -o "$out/tofu" github.com/opentofu/opentofu/cmd/tofu'
}
tool_etcd() {
  build etcd $ETCD_VERSION etcd -- \
    sh -c 'cd "'"$here"'/etcd" && go build -o "$out/etcd" .'
}
tool_kube() {
  build kube $KUBE_VERSION kube-apiserver kube-controller-manager kube-scheduler -- \
    sh -c 'cd "'"$here"'/kube" && for c in kube-apiserver kube-controller-manager kube-scheduler; do
             go build -ldflags "'"$kube_ldflags"'" -o "$out/$c" k8s.io/kubernetes/cmd/$c || exit 1; done'
}
tool_kwok() {
  build kwok $KWOK_VERSION kwok -- \
    sh -c 'GOBIN="$out" go install sigs.k8s.io/kwok/cmd/kwok@v'$KWOK_VERSION
}
tool_tfplugindocs() {
  build tfplugindocs $TFPLUGINDOCS_VERSION tfplugindocs -- \
    sh -c 'GOBIN="$out" go install github.com/hashicorp/terraform-plugin-docs/cmd/tfplugindocs@v'$TFPLUGINDOCS_VERSION
}
tool_golangci-lint() {
  build golangci-lint $GOLANGCI_VERSION golangci-lint -- \
    sh -c 'GOBIN="$out" go install github.com/golangci/golangci-lint/v2/cmd/golangci-lint@v'$GOLANGCI_VERSION
}

tool_goreleaser() {
  build goreleaser $GORELEASER_VERSION goreleaser -- \
    sh -c 'GOBIN="$out" go install github.com/goreleaser/goreleaser/v2@v'$GORELEASER_VERSION
}

tool_registry() {
  build registry $REGISTRY_VERSION registry -- \
    sh -c 'GOBIN="$out" go install github.com/distribution/distribution/v3/cmd/registry@v'$REGISTRY_VERSION
}

tool_postgres() {
  local version
  version=$(apt-cache policy "postgresql-$POSTGRES_MAJOR" 2>/dev/null | sed -n 's/^ *Candidate: //p')
  if { [ -z "$version" ] || [ "$version" = "(none)" ]; } && [ "$(id -u)" = 0 ]; then
    apt-get update -qq && version=$(apt-cache policy "postgresql-$POSTGRES_MAJOR" | sed -n 's/^ *Candidate: //p')
  fi
  if [ -z "$version" ] || [ "$version" = "(none)" ]; then
    echo "install.sh: Debian's package postgresql-$POSTGRES_MAJOR is unknown to apt: run apt-get update" >&2
    return 1
  fi
  build postgres "$version" initdb postgres -- \
    sh -c '"$0" '$POSTGRES_MAJOR' "$out"' "$here/postgres/unpack.sh"
}

tools=("$@")
[ ${#tools[@]} -gt 0 ] || tools=(terraform terraform-current tofu etcd kube kwok registry postgres tfplugindocs golangci-lint goreleaser)
for t in "${tools[@]}"; do
  if ! declare -F "tool_$t" >/dev/null; then echo "install.sh: unknown tool '$t'" >&2; exit 2; fi
  "tool_$t"
done
