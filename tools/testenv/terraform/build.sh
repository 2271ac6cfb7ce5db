#!/usr/bin/env bash
# Builds a current Terraform CLI from its module zip on the Go module proxy.
#
# `go install github.com/hashicorp/terraform@v1.6+` fails: Terraform's go.mod
# replaces ten nested modules (the remote-state backends azure, consul, cos,
# gcs, kubernetes, oci, oss, pg, s3 and internal/legacy) with local folders
# that the module zip leaves out, and those modules are published nowhere.
# Only internal/backend/init/init.go imports them, to register the backends.
# So this script takes the checksummed module zip, drops the nested modules
# from go.mod, removes their registrations from init.go, and builds the CLI
# as released (`version.dev=no`). The result is Terraform with the backends
# local, remote, http, inmem and cloud; the acceptance tests need only local.
#
# usage: build.sh VERSION MODULE_SUM OUTPUT_BINARY
set -euo pipefail

version=$1 want_sum=$2 output=$3
module=github.com/hashicorp/terraform
nested="azure consul cos gcs kubernetes oci oss pg s3"

info=$(go mod download -json "$module@v$version")
dir=$(printf '%s\n' "$info" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
sum=$(printf '%s\n' "$info" | sed -n 's/^[[:space:]]*"Sum": "\(.*\)",$/\1/p')
# The module proxy and the checksum database already vouch for the zip; the
# pinned sum makes the build depend on nothing but this project's files.
if [ "$sum" != "$want_sum" ]; then
  echo "terraform build: $module@v$version has sum $sum, want $want_sum" >&2
  exit 1
fi

src=$(mktemp -d -t terraform-src.XXXXXX)
trap 'chmod -R u+w "$src"; rm -rf "$src"' EXIT
cp -R "$dir/." "$src"
chmod -R u+w "$src"
cd "$src"

for m in $nested; do
  go mod edit -droprequire="$module/internal/backend/remote-state/$m" \
              -dropreplace="$module/internal/backend/remote-state/$m"
done
go mod edit -droprequire="$module/internal/legacy" -dropreplace="$module/internal/legacy"

# Each nested backend is one import line and one map entry in init.go,
# both naming its import alias; a Terraform version that registers them
# differently stops the build here instead of building something else.
init=internal/backend/init/init.go
aliases='backend\(Azure\|Consul\|Cos\|GCS\|Kubernetes\|OCI\|OSS\|Pg\|S3\)\b'
found=$(grep -c "$aliases" "$init" || true)
if [ "$found" != 18 ]; then
  echo "terraform build: $init of v$version names the nested backends on $found lines, want 18 (9 imports, 9 registrations)" >&2
  exit 1
fi
sed -i "/$aliases/d" "$init"
if grep -rq --include='*.go' -e "$module/internal/backend/remote-state/\(${nested// /\\|}\)\"" -e "$module/internal/legacy\"" \
     --exclude-dir=remote-state --exclude-dir=legacy .; then
  echo "terraform build: v$version imports a nested module outside $init" >&2
  exit 1
fi

GOFLAGS=-mod=readonly CGO_ENABLED=0 go build -trimpath \
  -ldflags "-X $module/version.dev=no" -o "$output" .
