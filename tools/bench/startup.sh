#!/usr/bin/env bash
# One start of the provider, no cluster, no Terraform: what every process
# start costs — Terraform starts the provider several times per command,
# and every Helm or Spiff render starts it once more as a sandbox child.
#
#   BASE_REV=<git revision> tools/bench/startup.sh
#
# Builds this tree and BASE_REV as released (-trimpath -s -w) and starts
# each binary PAIRS times (default 41) in turns, unstarted by Terraform
# (it prints go-plugin's notice and exits once its packages are
# initialised). Per start: the sum of GODEBUG=inittrace=1's init times
# (clock ms) and allocations, the process's wall and CPU time (user +
# system) and peak resident set (/usr/bin/time). Prints medians and the
# median of the ratios this/base taken pair by pair, then the packages
# whose init costs most in this build (median over the starts, TOP
# rows, default 25). Results: tools/bench/RESULTS.md, "A smaller floor".
set -euo pipefail

repo=$(cd "$(dirname "$0")/../.." && pwd)
cd "$repo"
: "${BASE_REV:?set BASE_REV to the revision to compare with}"
PAIRS=${PAIRS:-41}
TOP=${TOP:-25}

dir="$repo/.tools/bench/startup"
rm -rf "$dir" && mkdir -p "$dir/src"
go build -trimpath -ldflags "-s -w" -o "$dir/ours" .
git archive "$BASE_REV" | tar -x -C "$dir/src"
(cd "$dir/src" && go build -trimpath -ldflags "-s -w" -o "$dir/base" .)

# start BIN TAG: one start; appends "TAG init_ms init_bytes wall cpu rss_kib"
# to $dir/starts and the start's per-package init lines to $dir/TAG.pkgs.
start() {
	GODEBUG=inittrace=1 /usr/bin/time -f '%e %U %S %M' -o "$dir/time" "$1" >/dev/null 2>"$dir/trace" || true
	awk '/^init /{print $2, $5, $8}' "$dir/trace" >>"$dir/$2.pkgs"
	# time writes "Command exited with non-zero status 1" first: go-plugin
	# ends a plugin that Terraform did not start that way.
	read -r wall user sys rss < <(tail -n 1 "$dir/time")
	awk -v tag="$2" -v wall="$wall" -v cpu="$(awk -v u="$user" -v s="$sys" 'BEGIN{print u + s}')" -v rss="$rss" \
		'/^init /{ms += $5; b += $8} END {print tag, ms, b, wall, cpu, rss}' "$dir/trace" >>"$dir/starts"
}
: >"$dir/starts"
for ((i = 0; i < PAIRS; i++)); do
	start "$dir/ours" ours
	start "$dir/base" base
done

median() { sort -n | awk '{v[NR]=$1} END {print (NR%2) ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2}'; }
col() { awk -v t="$1" -v c="$2" '$1 == t {print $c}' "$dir/starts"; }
ratio() { paste <(col ours "$1") <(col base "$1") | awk '$2 > 0 {print $1 / $2}' | median; }
echo "# tools/bench/startup.sh: BASE_REV=$BASE_REV ($(git rev-parse --short "$BASE_REV")), this tree $(git rev-parse --short HEAD)$(git diff --quiet HEAD || echo '+changes'), PAIRS=$PAIRS, $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "| per start (median of $PAIRS) | ours | base | ratio ours/base, median of pairs |"
echo "|---|---|---|---|"
echo "| Go init, sum of inittrace clock (ms) | $(col ours 2 | median) | $(col base 2 | median) | $(ratio 2) |"
echo "| Go init, allocated (MB) | $(col ours 3 | median | awk '{printf "%.1f", $1/1e6}') | $(col base 3 | median | awk '{printf "%.1f", $1/1e6}') | $(ratio 3) |"
echo "| process wall (s) | $(col ours 4 | median) | $(col base 4 | median) | $(ratio 4) |"
echo "| process CPU, user + system (s) | $(col ours 5 | median) | $(col base 5 | median) | $(ratio 5) |"
echo "| peak resident set (MiB) | $(col ours 6 | median | awk '{printf "%.1f", $1/1024}') | $(col base 6 | median | awk '{printf "%.1f", $1/1024}') | $(ratio 6) |"
echo "| binary size (MB) | $(stat -c %s "$dir/ours" | awk '{printf "%.1f", $1/1e6}') | $(stat -c %s "$dir/base" | awk '{printf "%.1f", $1/1e6}') | |"
echo
echo "| package (ours; median init over $PAIRS starts) | clock ms | allocated bytes |"
echo "|---|---|---|"
sort -k1,1 -k2,2n "$dir/ours.pkgs" | awk -v n="$PAIRS" '{c[$1]++; if (c[$1] == int((n + 1) / 2)) print $2, $3, $1}' |
	sort -rn | head -n "$TOP" | awk '{printf "| %s | %s | %s |\n", $3, $1, $2}'
