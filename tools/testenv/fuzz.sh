#!/usr/bin/env bash
# Runs every Fuzz* target of the module for a short while (FUZZTIME, default 10s).
# Targets are discovered, not listed, so a new fuzz test is fuzzed without
# touching this file: packages whose tests declare `func Fuzz...` are asked
# for their targets with `go test -list`.
set -euo pipefail
cd "$(dirname "$0")/../.."
fuzztime=${FUZZTIME:-10s}

dirs=$(grep -rlE --include='*_test.go' '^func Fuzz[A-Z0-9_]' --exclude-dir=tools --exclude-dir=.tools . \
  | xargs -r -n1 dirname | sort -u)
if [ -z "$dirs" ]; then
  echo "fuzz: no Fuzz targets in this module"
  exit 0
fi

count=0
for dir in $dirs; do
  for target in $(go test -list '^Fuzz' "$dir" | grep -E '^Fuzz'); do
    echo "fuzz: $dir $target for $fuzztime"
    go test -run '^$' -fuzz "^${target}\$" -fuzztime "$fuzztime" "$dir"
    count=$((count + 1))
  done
done
echo "fuzz: $count targets fuzzed for $fuzztime each, no failure"
