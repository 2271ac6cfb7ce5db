#!/usr/bin/env bash
# `make release-snapshot`: the release pipeline of .goreleaser.yml, for the
# host platform only, without publishing: `goreleaser release --snapshot
# --clean`, signed with a throwaway GPG key made here (the real key lives only
# in the release workflow's secrets), then checked as the Terraform Registry
# would: archive names, the binary inside, the manifest, SHA256SUMS and a
# signature that gpg verifies. Output in dist/.
set -euo pipefail

repo=$(cd "$(dirname "$0")/../.." && pwd)
cd "$repo"
goreleaser="$repo/.tools/bin/goreleaser"
[ -x "$goreleaser" ] || { echo "release-snapshot: goreleaser is missing in .tools/bin: run make tools" >&2; exit 1; }
command -v gpg >/dev/null || { echo "release-snapshot: gpg is missing: run tools/testenv/prereqs.sh (Debian: apt-get install gnupg)" >&2; exit 1; }

work=$(mktemp -d -t release-snapshot.XXXXXX)
gpg_agent_started=
cleanup() {
  [ -z "$gpg_agent_started" ] || gpgconf --homedir "$work/gnupg" --kill gpg-agent 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

# The release configuration with its platform list replaced by the host's:
# everything else (names, checksums, signing, manifest) stays as released.
host="$(go env GOOS)_$(go env GOARCH)"
config="$work/goreleaser.yml"
awk -v target="$host" '
  /^    goos:/ { skipping = 1; print "    targets: [" target "]"; next }
  skipping && /^    binary:/ { skipping = 0 }
  !skipping { print }
' .goreleaser.yml >"$config"
grep -q "targets: \[$host\]" "$config" && grep -q '^    binary:' "$config" ||
  { echo "release-snapshot: .goreleaser.yml no longer has the builds' goos ... binary: layout this script rewrites" >&2; exit 1; }

export GNUPGHOME="$work/gnupg"
mkdir -m 700 "$GNUPGHOME"
gpg_agent_started=1
gpg --batch --quiet --passphrase '' --quick-gen-key "release-snapshot <release-snapshot@invalid>" ed25519 sign 1d
GPG_FINGERPRINT=$(gpg --batch --with-colons --list-secret-keys | awk -F: '$1 == "fpr" { print $10; exit }')
export GPG_FINGERPRINT

"$goreleaser" release --snapshot --clean --config "$config"

sums=$(echo dist/*_SHA256SUMS)
[ -f "$sums" ] || { echo "release-snapshot: no single *_SHA256SUMS in dist/: $sums" >&2; exit 1; }
# Publishing would upload the manifest under this name (release.extra_files);
# a snapshot does not, so put it where the checks see the whole release.
cp terraform-registry-manifest.json "${sums%_SHA256SUMS}_manifest.json"
gpg --batch --quiet --verify "$sums.sig" "$sums"
go run ./tools/release/checkrelease -config "$config" -dist dist
(cd dist && sha256sum --quiet --check "$(basename "$sums")")
echo "release-snapshot: dist/ holds a release for $host that the Registry would accept; signature verified"
