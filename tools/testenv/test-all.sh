#!/usr/bin/env bash
# `make test`: everything CI checks, in one run on a fresh machine.
# Builds the tools (cached), starts the local cluster, runs each check even
# when an earlier one failed (so one run shows every problem), stops the
# cluster whatever happens, then prints one line per check and the test count.
set -uo pipefail
cd "$(dirname "$0")/../.."

make --no-print-directory tools || { echo "test: building the tools failed" >&2; exit 1; }

log=$(mktemp -t landscaper-test.XXXXXX)
trap 'make --no-print-directory cluster-down; rm -f "$log"' EXIT
make --no-print-directory cluster-up || { echo "test: the local cluster did not start" >&2; exit 1; }

# The checks, in the order a developer wants their verdicts (fast first).
checks=(vet test-unit test-race test-acc-terraform test-acc-terraform-current test-acc-tofu test-blueprints fuzz docs-check lint release-check release-snapshot)
results=()
failed=0
for check in "${checks[@]}"; do
  echo
  echo "==> make $check"
  start=$SECONDS
  if make --no-print-directory "$check" 2>&1 | tee -a "$log"; then
    results+=("$(printf '  %-20s ok      %4ds' "$check" $((SECONDS - start)))")
  else
    results+=("$(printf '  %-20s FAILED  %4ds' "$check" $((SECONDS - start)))")
    failed=$((failed + 1))
  fi
done

# Stopped here rather than by the trap so that the summary stays the last output.
make --no-print-directory cluster-down
trap 'rm -f "$log"' EXIT

echo
echo "==> summary"
printf '%s\n' "${results[@]}"
passed=$(grep -cE '^\s*--- PASS' "$log")
tfailed=$(grep -cE '^\s*--- FAIL' "$log")
skipped=$(grep -cE '^\s*--- SKIP' "$log")
echo "tests: $passed passed, $tfailed failed, $skipped skipped"
if [ "$failed" -gt 0 ]; then
  echo "test: $failed of ${#checks[@]} checks failed" >&2
  exit 1
fi
