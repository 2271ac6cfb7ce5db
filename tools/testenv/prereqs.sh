#!/usr/bin/env bash
# Checks the few system programs the build and tests need besides Go, and
# installs the missing ones from Debian's packages when it can (CI runs as root):
# gcc for the race detector (cgo), git for the docs staleness check, make,
# gpg for the signed release snapshot.
set -euo pipefail

command -v go >/dev/null || { echo "prereqs: Go is not installed (need Go 1.26 on PATH)" >&2; exit 1; }

missing=()
for cmd in gcc:gcc git:git make:make gpg:gnupg; do
  command -v "${cmd%%:*}" >/dev/null || missing+=("${cmd##*:}")
done
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  echo "prereqs: installing ${missing[*]} from Debian's packages" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}"
else
  echo "prereqs: missing ${missing[*]}: install them (Debian: apt-get install ${missing[*]})" >&2
  exit 1
fi
