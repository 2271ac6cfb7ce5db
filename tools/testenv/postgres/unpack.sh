#!/usr/bin/env bash
# Unpacks the PostgreSQL server of Debian's packages into a folder, without
# installing anything: `apt-get download` (no root needed) and `dpkg -x`.
# The pg state-backend acceptance test starts it on loopback in a temporary
# folder (internal/testsupport/postgres). Besides the server package, the
# libraries its programs link against are unpacked too (all but libc), so
# it runs on a machine that has none of them; initdb and postgres in OUT
# are wrappers that point the dynamic loader at them.
#
# usage: unpack.sh MAJOR OUT
set -euo pipefail

major=$1 out=$2
libs="libaudit1 libcap-ng0 libcap2 libcom-err2 libssl3 libffi8 libgcrypt20 libgmp10 libgnutls30
libgpg-error0 libgssapi-krb5-2 libhogweed6 libicu72 libidn2-0 libk5crypto3 libkeyutils1 libkrb5-3
libkrb5support0 libldap-2.5-0 liblz4-1 liblzma5 libnettle8 libp11-kit0 libpam0g libpq5 libsasl2-2
libstdc++6 libsystemd0 libtasn1-6 libunistring2 libxml2 zlib1g libzstd1"

debs=$(mktemp -d -t postgres-debs.XXXXXX)
trap 'rm -rf "$debs"' EXIT
# shellcheck disable=SC2086 # the list is words
(cd "$debs" && apt-get download -q "postgresql-$major" $libs)
root="$out/root"
mkdir -p "$root"
for deb in "$debs"/*.deb; do dpkg -x "$deb" "$root"; done

bin="$root/usr/lib/postgresql/$major/bin"
for prog in initdb postgres; do
  [ -x "$bin/$prog" ] || { echo "postgres unpack: $bin/$prog is missing" >&2; exit 1; }
  # Relative to the wrapper, so the cache folder may move (install.sh renames it).
  cat >"$out/$prog" <<WRAPPER
#!/bin/sh
root=\$(dirname "\$(readlink -f "\$0")")/root
LD_LIBRARY_PATH="\$root/usr/lib/x86_64-linux-gnu:\$root/lib/x86_64-linux-gnu\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}" \\
  exec "\$root/usr/lib/postgresql/$major/bin/$prog" "\$@"
WRAPPER
  chmod +x "$out/$prog"
done
