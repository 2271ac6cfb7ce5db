#!/usr/bin/env bash
# Whole-command benchmarks of the provider against the local cluster
# (`make bench`; not part of `make test`). Results and how to read them:
# tools/bench/RESULTS.md.
#
#   tools/bench/run.sh [chain|helm|requests|scale|startup|bigchart|envoy|all]  (default: all)
#
#   chain     the floor (one landscaper_target, no cluster work: what any
#             terraform command costs here), then workload A: one
#             installation, 20 ConfigMap deploy items chained with
#             dependsOn. Times `terraform apply` (create) and
#             `terraform destroy` (delete) separately, RUNS times each.
#   helm      workload B: a Helm release of a 2-replica Deployment, waited
#             for until ready; times create (and destroy), and reads how
#             long the rollout itself took in the cluster.
#   requests  API requests per object: apiserver_request_total before and
#             after a create of workload A, a no-op plan, a no-op apply and
#             a destroy (REQ_REPS repetitions, default 3; fewest counted).
#   scale     workload S: independent ConfigMap deploy items, one
#             installation of N = 100 and N = 1,000, and 50 installations
#             x 20; times apply, a no-op plan (its refresh included), a
#             plan in which one item of the first installation changes
#             (checked to show that item alone), the apply of that
#             change and destroy (SCALE_RUNS
#             each, default 3), the state file's size after apply, and the provider
#             processes' peak resident memory during each. SCALE_TFVARS
#             adds lines to its terraform.tfvars (e.g. 'parallelism = 10',
#             'cluster_qps = 200'); SCALE_ONLY=100|1000|50x20|10x100|100x100
#             runs one (10 and 100 installations x 100 items: 1,000 and
#             10,000 objects, the issue-35 workload).
#             SCALE_ONLY=10000|50000 (not in "all": minutes each) one
#             installation of 10,000 or 50,000, whose record is split.
#             Besides wall time it reports CPU time: user + system of
#             terraform and every provider process it started, which a
#             loaded machine disturbs far less than wall time.
#             BASE_REV=<git revision> also builds the provider at that
#             revision and runs each apply / plan / destroy triple with it
#             in turns with this tree's, printing this/base ratios taken
#             pair by pair (a machine that slows down moves both). With
#             several installations (50 x 20) the same triple also runs,
#             in turns, on as many landscaper_target resources, which
#             touch no cluster (workload floor-scale): the CLI's and the
#             plugin protocol's floor for that many resources, printed
#             as a ratio ours/floor; and on as many landscaper_target
#             resources whose state is as large as ours after its first
#             apply (workload floor-state): Terraform's own cost for a
#             state of that size, printed as ratio ours/state floor.
#             From 1,000 objects on (API_FLOOR=1:
#             always; API_FLOOR=0: never) tools/bench/apifloor also
#             server-side applies and deletes as many ConfigMaps, in
#             turns with the triples, API_FLOOR_WORKERS (default 32) in
#             flight and no client-side limit: the API server's floor
#             on this machine, printed as a ratio ours/API floor for
#             apply and destroy.
#   startup   the floor of a command (one landscaper_target) and workload
#             A (20 chained ConfigMaps): apply, no-op plan and destroy in
#             turns with BASE_REV's build (required), RUNS triples each
#             after one warm-up; wall, CPU and ratios pair by pair, as
#             scale prints them. Not part of all. The process-level figures
#             (Go init, one start's CPU and memory) are
#             tools/bench/startup.sh's, which needs no cluster.
#   bigchart  workload C (issue 34): a Helm chart of BIG_LINES rendered
#             lines (default "5000 25000"; ten ConfigMaps of two lines per
#             key, plus a small one), for each size BIG_RUNS times
#             (default 2, after a warm-up): the create's plan, a plan of a
#             one-field change (the small ConfigMap's greeting) and
#             `terraform show` of that plan, with the lines the change
#             prints in deploy_item_objects and terraform's peak memory.
#             With BASE_REV, the base build runs in turns for sizes up to
#             BIG_BASE_MAX (default 5000): one string per item costs the
#             CLI the square of its lines (25,000 lines took 168 s and
#             11.5 GiB to show), too much for a shared machine.
#   envoy     workload E (issue 34 item 9): envoy gateway's public chart,
#             fresh installs (CRDs included) by this provider (and
#             BASE_REV's build), by helm_release and by `helm install
#             --wait`, in turns, RUNS rounds after a warm-up; wall times
#             and ratios pair by pair. It fetches the chart and builds the
#             helm CLI and the hashicorp/helm peer itself, once, into
#             ~/.cache/terraform-provider-landscaper/bench (tools/bench/envoy.sh:
#             ENVOY_VERSION, PEER_HELM, PEER_HELM_VERSION). Not part of all.
#
# Environment: RUNS (default 5) timed runs after one warm-up run;
# PEER_HELM: a built hashicorp/helm provider binary to run workload B
# against, in turns with this provider (bench_helm_vs_peer);
# PEER_KUBERNETES: a built hashicorp/kubernetes provider binary: `scale`
# then also runs PEER_ITEMS (default 20) independent ConfigMaps as one
# installation and as kubernetes_manifest resources in turns
# (bench_scale_vs_kubernetes_peer);
# ITEMS (default 20) length of the chain. Every run uses a fresh, uniquely
# named namespace, and everything is destroyed and deleted on exit; a local
# cluster the script started is stopped then too, unless
# BENCH_KEEP_CLUSTER=1 (LOCALCLUSTER_PORT picks its port, as for make
# cluster-up).
set -euo pipefail

repo=$(cd "$(dirname "$0")/../.." && pwd)
cd "$repo"

RUNS=${RUNS:-5}
ITEMS=${ITEMS:-20}
what=${1:-all}
[ "$what" != startup ] || [ -n "${BASE_REV:-}" ] || { echo "$0 startup: set BASE_REV (the build to compare with)" >&2; exit 2; }
case $what in chain | helm | requests | scale | startup | bigchart | envoy | all) ;; *)
	echo "usage: $0 [chain|helm|requests|scale|startup|bigchart|envoy|all]" >&2
	exit 2
	;;
esac

terraform="$repo/.tools/bin/terraform"
kubeconfig="$repo/.cluster/kubeconfig"
bench_dir="$repo/.tools/bench"
provider_dir="$bench_dir/provider"
kc() { kubectl --kubeconfig "$kubeconfig" "$@"; }

[ -x "$terraform" ] || tools/testenv/install.sh terraform
# A cluster this script starts it also stops (cleanup), so a later test run
# finds its port free; BENCH_KEEP_CLUSTER=1 keeps it for the next bench.
started_cluster=0
if ! kc get --raw /readyz >/dev/null 2>&1; then
	make --no-print-directory cluster-up
	started_cluster=1
fi

mkdir -p "$provider_dir"
# Built as released (.goreleaser.yml), and started through /usr/bin/time,
# which appends the provider process's peak resident set (KiB) to
# $PROVIDER_RSS_LOG at every start: Terraform starts it several times per
# command, and passes its environment on.
go build -trimpath -ldflags "-s -w" -o "$provider_dir/terraform-provider-landscaper.bin" .
export PROVIDER_RSS_LOG="$bench_dir/provider-rss.log"
cat >"$provider_dir/terraform-provider-landscaper" <<'WRAP'
#!/bin/sh
exec /usr/bin/time -f %M -a -o "$PROVIDER_RSS_LOG" "$0.bin" "$@"
WRAP
chmod +x "$provider_dir/terraform-provider-landscaper"
# BASE_REV: the same, built from that revision's tree, in its own folder.
base_dir="$bench_dir/base"
BASE_REV=${BASE_REV:-}
if [ -n "$BASE_REV" ]; then
	rm -rf "$base_dir" && mkdir -p "$base_dir/src"
	git archive "$BASE_REV" | tar -x -C "$base_dir/src"
	(cd "$base_dir/src" && go build -trimpath -ldflags "-s -w" -o "$base_dir/terraform-provider-landscaper.bin" .)
	cp "$provider_dir/terraform-provider-landscaper" "$base_dir/terraform-provider-landscaper"
fi

# dev_overrides: Terraform uses the binary just built, offline, no init.
export TF_CLI_CONFIG_FILE="$bench_dir/terraformrc" TF_IN_AUTOMATION=1
# The hashicorp/helm peer, when built (PEER_HELM: its binary; see
# RESULTS.md for how it was built), runs against workload B in turns.
peer_dir="$bench_dir/peers"
PEER_HELM=${PEER_HELM:-}
if [ -n "$PEER_HELM" ]; then
	mkdir -p "$peer_dir"
	cp "$PEER_HELM" "$peer_dir/terraform-provider-helm"
fi
PEER_KUBERNETES=${PEER_KUBERNETES:-}
if [ -n "$PEER_KUBERNETES" ]; then
	mkdir -p "$peer_dir"
	cp "$PEER_KUBERNETES" "$peer_dir/terraform-provider-kubernetes"
fi
cat >"$TF_CLI_CONFIG_FILE" <<TFRC
provider_installation {
  dev_overrides {
    "registry.terraform.io/landscaper-terraform/landscaper" = "$provider_dir"
    "registry.terraform.io/hashicorp/helm" = "$peer_dir"
    "registry.terraform.io/hashicorp/kubernetes" = "$peer_dir"
  }
  direct {}
}
TFRC
ours_rc=$TF_CLI_CONFIG_FILE base_rc="$bench_dir/terraformrc-base"
# shellcheck source=tools/bench/envoy.sh
. "$repo/tools/bench/envoy.sh"
sed "s#\"$provider_dir\"#\"$base_dir\"#" "$ours_rc" >"$base_rc"

run_id="$(date -u +%Y%m%d%H%M%S)-$$"
work="$bench_dir/work/$run_id"
mkdir -p "$work"
namespaces=()
workdirs=()

# cleanup destroys whatever a workload left (also after a failure or ^C)
# and deletes the namespaces, so the cluster is as it was. After a failure
# the work folder stays, for its terraform.log.
cleanup() {
	local rc=$? dir ns
	for dir in "${workdirs[@]}"; do
		if [ -s "$dir/terraform.tfstate" ] && grep -q '"resources": \[$' "$dir/terraform.tfstate"; then
			"$terraform" -chdir="$dir" destroy -auto-approve -input=false -no-color >/dev/null ||
				echo "cleanup: terraform destroy failed in $dir" >&2
		fi
	done
	envoy_cleanup
	for ns in "${namespaces[@]}"; do
		kc delete namespace "$ns" --ignore-not-found --wait=false >/dev/null || true
	done
	if ((rc == 0)); then
		rm -rf "$work"
	else
		echo "failed; kept $work" >&2
	fi
	if ((started_cluster)) && [ "${BENCH_KEEP_CLUSTER:-0}" != 1 ]; then
		make --no-print-directory cluster-down >/dev/null || echo "cleanup: make cluster-down failed" >&2
	fi
}
trap cleanup EXIT

# workload NAME: sets WORKDIR to a fresh copy of tools/bench/workloads/NAME
# bound to a new namespace (NAMESPACE).
workload() {
	local name=$1 ns="bench-$1-$run_id-${RANDOM}" dir="$work/$1-${#workdirs[@]}"
	kc create namespace "$ns" >/dev/null
	namespaces+=("$ns")
	cp -r "tools/bench/workloads/$name" "$dir"
	[ "$name" != helm-peer ] || cp -r tools/bench/workloads/helm/blueprint/charts/bench "$dir/bench"
	printf 'kubeconfig_path = "%s"\nnamespace = "%s"\n' "$kubeconfig" "$ns" >"$dir/terraform.tfvars"
	[ "$name" != chain ] || printf 'item_count = %s\n' "$ITEMS" >>"$dir/terraform.tfvars"
	[ "$name" != scale-peer ] || printf 'item_count = %s\n' "$2" >>"$dir/terraform.tfvars"
	[ "$name" != scale ] || printf 'item_count = %s\ninstallations = %s\n%s\n' "$2" "$3" "${SCALE_TFVARS:-}" >>"$dir/terraform.tfvars"
	[ "$name" != floor-scale ] || printf 'installations = %s\n' "$2" >>"$dir/terraform.tfvars"
	[ "$name" != floor-state ] || printf 'installations = %s\n' "$2" >>"$dir/terraform.tfvars"
	[ "$name" != bigchart ] || printf 'keys = %s\n' "$(($2 / 20))" >>"$dir/terraform.tfvars"
	workdirs+=("$dir")
	WORKDIR=$dir NAMESPACE=$ns
}

# tf runs terraform in the current workload; terraform.log keeps the last call's output.
tf() { "$terraform" -chdir="$WORKDIR" "$@" -input=false -no-color >"$work/terraform.log" 2>&1; }
now() { date +%s%N; }
# elapsed START -> seconds since START (from now) with millisecond precision
elapsed() { echo "$(($(now) - $1))" | awk '{printf "%.3f", $1/1e9}'; }
# stats -> "min median max" of the numbers on stdin
stats() { sort -n | awk '{v[NR]=$1} END {m=(NR%2)?v[(NR+1)/2]:(v[NR/2]+v[NR/2+1])/2; printf "%.2f s / %.2f s / %.2f s", v[1], m, v[NR]}'; }

# expect_configmaps N: the chain deployed exactly N ConfigMaps (checked
# outside the timed region, so a fast but broken run is not reported).
expect_configmaps() {
	local got
	got=$(kc get configmaps -n "$NAMESPACE" -o name | grep -c '/bench-cm-' || true)
	[ "$got" -eq "$1" ] || {
		echo "expected $1 bench ConfigMaps in $NAMESPACE, found $got (log: $work/terraform.log)" >&2
		exit 1
	}
}

# timed_pairs CHECK_CREATED CHECK_DELETED: one warm-up and RUNS timed
# create/destroy pairs of the current workload; sets CREATE and DELETE
# ("min / median / max") and FAILED. A create that fails (the local
# cluster's kwok node flaps NotReady for 5 s a minute, and a pod created
# then may never turn Ready) is reported on stderr, destroyed, not timed,
# and run again; the third failure ends the benchmark.
timed_pairs() {
	local i=0 t ok create="" delete=""
	FAILED=0
	while ((i <= RUNS)); do
		t=$(now)
		ok=1
		tf apply -auto-approve || ok=0
		if ((ok == 0)); then
			FAILED=$((FAILED + 1))
			cp "$work/terraform.log" "$work/failed-$FAILED.log"
			echo "run $i of $WORKDIR: terraform apply failed after $(elapsed "$t") s: $(grep -m1 -o 'is not ready: .*' "$work/terraform.log" || echo "see $work/failed-$FAILED.log")" >&2
			((FAILED < 3)) || { echo "three failed runs" >&2; exit 1; }
			tf destroy -auto-approve
			continue
		fi
		((i == 0)) || create+="$(elapsed "$t")"$'\n'
		$1
		t=$(now)
		tf destroy -auto-approve
		((i == 0)) || delete+="$(elapsed "$t")"$'\n'
		$2
		i=$((i + 1))
	done
	CREATE=$(printf '%s' "$create" | stats)
	DELETE=$(printf '%s' "$delete" | stats)
}

no_check() { :; }

bench_floor() {
	workload floor
	timed_pairs no_check no_check
	echo "| floor: create one landscaper_target, no cluster work (terraform apply) | $CREATE |"
	echo "| floor: delete it (terraform destroy) | $DELETE |"
}

bench_chain() {
	workload chain
	timed_pairs "expect_configmaps $ITEMS" "expect_configmaps 0"
	echo "| A: create $ITEMS chained ConfigMaps (terraform apply) | $CREATE |"
	echo "| A: delete them (terraform destroy) | $DELETE |"
}

# rollout_seconds: how long the cluster took to make the release's
# Deployment available, from its creation to the Available condition
# (server-side timestamps, whole seconds).
rollout_seconds() {
	kc get deployment bench-web -n "$NAMESPACE" -o json | python3 -c '
import json, sys
from datetime import datetime
d = json.load(sys.stdin)
ts = lambda s: datetime.strptime(s, "%Y-%m-%dT%H:%M:%SZ")
avail = [c for c in d["status"]["conditions"] if c["type"] == "Available" and c["status"] == "True"]
if d["status"].get("readyReplicas") == 2 and avail:
    print((ts(avail[0]["lastTransitionTime"]) - ts(d["metadata"]["creationTimestamp"])).total_seconds())
else:
    # Ready when terraform returned, but the kwok node flapped since.
    print("Deployment bench-web is no longer ready; its rollout is not counted", file=sys.stderr)'
}

# kubectl_rollout: the same Deployment applied with kubectl and waited for
# with `kubectl rollout status` (a watch): the cluster's own rollout time
# with sub-second resolution, plus two kubectl start-ups.
kubectl_rollout() {
	local t
	t=$(now)
	sed -e 's/{{ .Release.Name }}/bench-ref/g' -e 's/{{ .Values.replicas }}/2/' \
		tools/bench/workloads/helm/blueprint/charts/bench/templates/deployment.yaml |
		kc apply -n "$NAMESPACE" -f - >/dev/null
	if kc rollout status deployment/bench-ref -n "$NAMESPACE" --timeout=30s >/dev/null 2>&1; then
		elapsed "$t"
	else
		echo "kubectl rollout of bench-ref did not finish in 30 s (see timed_pairs: the kwok node flaps); not timed" >&2
	fi
	kc delete deployment bench-ref -n "$NAMESPACE" --wait=true >/dev/null
}

bench_helm() {
	workload helm
	local rollouts=""
	record_rollout() {
		local r
		r=$(rollout_seconds)
		[ -z "$r" ] || rollouts+="$r"$'\n'
	}
	timed_pairs record_rollout no_check
	echo "| B: create Helm release, 2-replica Deployment ready (terraform apply) | $CREATE (+$FAILED failed, not timed) |"
	echo "| B: delete it (terraform destroy) | $DELETE |"
	echo "| B: rollout in the cluster (Deployment created -> Available, 1 s resolution) | $(printf '%s' "$rollouts" | stats) |"
	local ref="" i t
	for ((i = 0; i < RUNS; i++)); do
		t=$(kubectl_rollout)
		[ -z "$t" ] || ref+="$t"$'\n'
	done
	echo "| B: same Deployment by kubectl apply + rollout status | $(printf '%s' "$ref" | stats) |"
}

# peak_rss: the largest provider peak (MiB) logged since the log was cleared.
peak_rss() { awk '/^[0-9]+$/ && $1 > m {m = $1} END {printf "%.0f", m/1024}' "$PROVIDER_RSS_LOG" 2>/dev/null || echo 0; }

# measure ARGS...: runs terraform ARGS in the current workload; sets WALL
# (seconds), CPU (user + system seconds of terraform and the provider
# processes it started and waited for) and RSS (the largest provider peak
# resident set, MiB). Fails as terraform does; MEASURE_OK (default 0) is
# the exit code that counts as success (2: a plan with -detailed-exitcode
# that finds changes).
measure() {
	local t rc=0
	: >"$PROVIDER_RSS_LOG"
	t=$(now)
	# Flags before the arguments: a plan file must come last.
	/usr/bin/time -f '%U %S' -o "$work/time" "$terraform" -chdir="$WORKDIR" "$1" -input=false -no-color "${@:2}" >"$work/terraform.log" 2>&1 || rc=$?
	[ "$rc" -eq "${MEASURE_OK:-0}" ] || return 1
	WALL=$(elapsed "$t")
	# time's last line; a non-zero exit adds a line before it.
	CPU=$(tail -n 1 "$work/time" | awk '{printf "%.2f", $1 + $2}')
	RSS=$(peak_rss)
}

# expect_one_changed: the last plan shows item cm-7 of installation scale-0
# changing and no other item (deploy_items, and deploy_item_objects where
# the build has it).
expect_one_changed() {
	local shown
	shown=$(grep -oE '~ "scale-0/cm-[0-9]+"' "$work/terraform.log" | sort -u | tr '\n' ' ')
	[ "$shown" = '~ "scale-0/cm-7" ' ] || {
		echo "the plan with one changed item shows $shown (log: $work/terraform.log)" >&2
		exit 1
	}
}

# cli_floor VARIANT: whether VARIANT is one of the landscaper_target floors,
# which touch no cluster and have no change steps.
cli_floor() { [ "$1" = floor ] || [ "$1" = state ]; }

# bench_scale_one N INSTALLATIONS: SCALE_RUNS apply / no-op plan / destroy
# triples (after one warm-up) of INSTALLATIONS x N independent ConfigMaps;
# with BASE_REV, each triple is followed by the same with the base build.
bench_scale_one() {
	local n=$1 inst=$2 total=$(($1 * $2)) i v step what variants=(ours) scale_dir floor_dir="" state_dir=""
	declare -A wall cpu rss state
	[ -z "$BASE_REV" ] || variants+=(base)
	if ((inst > 1)); then
		workload floor-scale "$inst"
		floor_dir=$WORKDIR
		variants+=(floor)
		workload floor-state "$inst"
		state_dir=$WORKDIR
		variants+=(state)
	fi
	workload scale "$n" "$inst"
	scale_dir=$WORKDIR
	# The API server's floor for the same objects (tools/bench/apifloor):
	# from 1,000 objects on, or when API_FLOOR=1; API_FLOOR=0 leaves it out.
	local api_ns="" api_delete=""
	if [ "${API_FLOOR:-}" = 1 ] || { ((total >= 1000)) && [ "${API_FLOOR:-}" != 0 ]; }; then
		api_ns="bench-apifloor-$run_id-${RANDOM}"
		kc create namespace "$api_ns" >/dev/null
		namespaces+=("$api_ns")
		go build -o "$bench_dir/apifloor" ./tools/bench/apifloor
		variants+=(api)
	fi
	for ((i = 0; i <= ${SCALE_RUNS:-3}; i++)); do
		for v in "${variants[@]}"; do
			export TF_CLI_CONFIG_FILE=$ours_rc
			[ "$v" != base ] || TF_CLI_CONFIG_FILE=$base_rc
			WORKDIR=$scale_dir
			[ "$v" != floor ] || WORKDIR=$floor_dir
			[ "$v" != state ] || WORKDIR=$state_dir
			if [ "$v" = state ] && ! grep -q state_kb "$state_dir/terraform.tfvars"; then
				# each target holds its config twice (config, target)
				printf 'state_kb = %s\n' "$((state[ours] / inst / 2048))" >>"$state_dir/terraform.tfvars"
			fi
			for step in apply plan change change-apply destroy; do
				! cli_floor "$v" || [ "${step%-apply}" != change ] || continue
				if [ "$v" = api ]; then
					case $step in
					apply)
						local out
						out=$("$bench_dir/apifloor" -kubeconfig "$kubeconfig" -namespace "$api_ns" \
							-objects "$total" -workers "${API_FLOOR_WORKERS:-32}" -prefix "run$i") ||
							{ echo "apifloor of $total objects failed" >&2; exit 1; }
						read -r _ WALL _ api_delete <<<"$out"
						;;
					destroy) WALL=$api_delete ;;
					*) continue ;;
					esac
					((i > 0)) || continue
					wall[$v.$step]+="$WALL"$'\n'
					continue
				fi
				case $step in
				apply) measure apply -auto-approve || { echo "apply ($v) of $inst x $n failed (log: $work/terraform.log)" >&2; exit 1; } ;;
				plan) measure plan -detailed-exitcode || { echo "a no-op plan ($v) of $inst x $n found changes (log: $work/terraform.log)" >&2; exit 1; } ;;
				change)
					MEASURE_OK=2 measure plan -detailed-exitcode -var changed_item=7 || { echo "a plan ($v) of $inst x $n with one changed item failed or found none (log: $work/terraform.log)" >&2; exit 1; }
					expect_one_changed
					;;
				change-apply) measure apply -auto-approve -var changed_item=7 || { echo "the apply ($v) of $inst x $n with one changed item failed (log: $work/terraform.log)" >&2; exit 1; } ;;
				destroy) measure destroy -auto-approve || { echo "destroy ($v) of $inst x $n failed (log: $work/terraform.log)" >&2; exit 1; } ;;
				esac
				[ "$step" != apply ] || [ "$v" = floor ] || state[$v]=$(wc -c <"$WORKDIR/terraform.tfstate")
				cli_floor "$v" || case $step in apply) expect_configmaps "$total" ;; destroy) expect_configmaps 0 ;; esac
				((i > 0)) || continue
				wall[$v.$step]+="$WALL"$'\n' cpu[$v.$step]+="$CPU"$'\n'
				((RSS <= ${rss[$v.$step]:-0})) || rss[$v.$step]=$RSS
			done
		done
	done
	export TF_CLI_CONFIG_FILE=$ours_rc
	what="$inst x $n ConfigMaps"
	((inst > 1)) || what="N = $n ConfigMaps"
	for step in apply plan change change-apply destroy; do
		local label="S: $what: $step"
		[ "$step" != plan ] || label="S: $what: no-op plan"
		[ "$step" != change ] || label="S: $what: plan with one changed item"
		[ "$step" != change-apply ] || label="S: $what: apply of one changed item"
		for v in "${variants[@]}"; do
			! cli_floor "$v" || [ "${step%-apply}" != change ] || continue
			if [ "$v" = api ]; then
				[ "$step" = apply ] || [ "$step" = destroy ] || continue
				echo "| $label (API server floor: apifloor, $total objects, ${API_FLOOR_WORKERS:-32} in flight) | $(printf '%s' "${wall[api.$step]}" | stats) | | |"
				continue
			fi
			echo "| $label ($v) | $(printf '%s' "${wall[$v.$step]}" | stats) | $(printf '%s' "${cpu[$v.$step]}" | stats) | ${rss[$v.$step]:-0} MiB |"
		done
		[ -z "$BASE_REV" ] || echo "| $label: ratio ours/base, pair by pair | $(ratios "${wall[ours.$step]}" "${wall[base.$step]}") | $(ratios "${cpu[ours.$step]}" "${cpu[base.$step]}") | |"
		[ -z "$floor_dir" ] || [ "${step%-apply}" = change ] || echo "| $label: ratio ours/floor ($inst landscaper_target), pair by pair | $(ratios "${wall[ours.$step]}" "${wall[floor.$step]}") | $(ratios "${cpu[ours.$step]}" "${cpu[floor.$step]}") | |"
		[ -z "$state_dir" ] || [ "${step%-apply}" = change ] || echo "| $label: ratio ours/state floor ($inst landscaper_target holding a state as large), pair by pair | $(ratios "${wall[ours.$step]}" "${wall[state.$step]}") | $(ratios "${cpu[ours.$step]}" "${cpu[state.$step]}") | |"
		[ -z "$api_ns" ] || { [ "$step" != apply ] && [ "$step" != destroy ]; } || echo "| $label: ratio ours/API server floor, pair by pair | $(ratios "${wall[ours.$step]}" "${wall[api.$step]}") | | |"
	done
	for v in ours base state; do
		[ -n "${state[$v]:-}" ] || continue
		echo "| S: $what: state file after apply ($v) | $(awk -v b="${state[$v]}" 'BEGIN {printf "%.2f MiB", b/1048576}') | | |"
	done
}

# bench_startup_pairs: apply / no-op plan / destroy of the floor (one
# landscaper_target) and of workload A, each triple with this build and
# then BASE_REV's, RUNS times after one warm-up; what a smaller start of
# the provider gains on whole commands.
bench_startup_pairs() {
	local name i v step dir label
	declare -A wall cpu
	for name in floor chain; do
		workload "$name"
		dir=$WORKDIR
		for ((i = 0; i <= RUNS; i++)); do
			for v in ours base; do
				export TF_CLI_CONFIG_FILE=$ours_rc
				[ "$v" != base ] || TF_CLI_CONFIG_FILE=$base_rc
				WORKDIR=$dir
				for step in apply plan destroy; do
					case $step in
					apply) measure apply -auto-approve || { echo "apply ($v) of $name failed (log: $work/terraform.log)" >&2; exit 1; } ;;
					plan) measure plan -detailed-exitcode || { echo "a no-op plan ($v) of $name found changes (log: $work/terraform.log)" >&2; exit 1; } ;;
					destroy) measure destroy -auto-approve || { echo "destroy ($v) of $name failed (log: $work/terraform.log)" >&2; exit 1; } ;;
					esac
					[ "$name" != chain ] || case $step in apply) expect_configmaps "$ITEMS" ;; destroy) expect_configmaps 0 ;; esac
					((i > 0)) || continue
					wall[$name.$v.$step]+="$WALL"$'\n' cpu[$name.$v.$step]+="$CPU"$'\n'
				done
			done
		done
		export TF_CLI_CONFIG_FILE=$ours_rc
		for step in apply plan destroy; do
			label="floor (one landscaper_target): $step"
			[ "$name" != chain ] || label="A ($ITEMS chained ConfigMaps): $step"
			[ "$step" != plan ] || label="${label%: plan}: no-op plan"
			for v in ours base; do
				echo "| $label ($v) | $(printf '%s' "${wall[$name.$v.$step]}" | stats) | $(printf '%s' "${cpu[$name.$v.$step]}" | stats) |"
			done
			echo "| $label: ratio ours/base, pair by pair | $(ratios "${wall[$name.ours.$step]}" "${wall[$name.base.$step]}") | $(ratios "${cpu[$name.ours.$step]}" "${cpu[$name.base.$step]}") |"
		done
	done
}

# ratios A B: "min / median / max" of A[i]/B[i] over two lists of numbers.
ratios() {
	paste <(printf '%s' "$1") <(printf '%s' "$2") | awk '$2 > 0 {printf "%.3f\n", $1 / $2}' | stats | sed 's/ s//g'
}

bench_scale() {
	echo "| command | wall: min / median / max of ${SCALE_RUNS:-3} runs | CPU (terraform + provider) | provider peak RSS |"
	echo "|---|---|---|---|"
	case ${SCALE_ONLY:-all} in 100 | all) bench_scale_one 100 1 ;; esac
	case ${SCALE_ONLY:-all} in 1000 | all) bench_scale_one 1000 1 ;; esac
	case ${SCALE_ONLY:-all} in 50x20 | all) bench_scale_one 20 50 ;; esac
	case ${SCALE_ONLY:-all} in 10x100 | all) bench_scale_one 100 10 ;; esac
	case ${SCALE_ONLY:-all} in 100x100 | all) bench_scale_one 100 100 ;; esac
	# Not in "all": minutes each; records beyond one Secret (issue 37).
	case ${SCALE_ONLY:-all} in 10000) bench_scale_one 10000 1 ;; esac
	case ${SCALE_ONLY:-all} in 50000) bench_scale_one 50000 1 ;; esac
}

# objects_lines: the lines of deploy_item_objects in the last plan's output.
objects_lines() {
	awk '/deploy_item_objects/ && !n {n = 1; ind = index($0, $1) + 1; end = sprintf("%*s)", ind, "")}
		n == 1 {c++} n == 1 && $0 == end {n = 2} END {print c + 0}' "$work/terraform.log"
}

# measure_cli ARGS...: like measure, for a command that starts no provider
# (terraform show of a plan file); RSS is terraform's own peak (MiB).
measure_cli() {
	local t
	t=$(now)
	/usr/bin/time -f '%U %S %M' -o "$work/time" "$terraform" -chdir="$WORKDIR" "$1" -no-color "${@:2}" >"$work/terraform.log" 2>&1 || return 1
	WALL=$(elapsed "$t")
	CPU=$(tail -n 1 "$work/time" | awk '{printf "%.2f", $1 + $2}')
	RSS=$(tail -n 1 "$work/time" | awk '{printf "%.0f", $3/1024}')
}

# bench_bigchart: workload C at each of BIG_LINES, ours and (up to
# BIG_BASE_MAX lines) the base build in turns.
bench_bigchart() {
	local lines i v step variants dir
	declare -A wall cpu rss shown
	echo "| C: chart of N lines, step (build) | wall: min / median / max | CPU (terraform + provider) | peak RSS (show: terraform's) | deploy_item_objects lines printed |"
	echo "|---|---|---|---|---|"
	for lines in ${BIG_LINES:-5000 25000}; do
		variants=(ours)
		[ -z "$BASE_REV" ] || ((lines > ${BIG_BASE_MAX:-5000})) || variants+=(base)
		workload bigchart "$lines"
		dir=$WORKDIR
		for ((i = 0; i <= ${BIG_RUNS:-2}; i++)); do
			for v in "${variants[@]}"; do
				export TF_CLI_CONFIG_FILE=$ours_rc
				[ "$v" != base ] || TF_CLI_CONFIG_FILE=$base_rc
				WORKDIR=$dir
				for step in create apply change show destroy; do
					case $step in
					create) measure plan -out=create.tfplan || { echo "plan ($v, $lines lines) failed (log: $work/terraform.log)" >&2; exit 1; } ;;
					apply) measure apply create.tfplan || { echo "apply ($v, $lines lines) failed (log: $work/terraform.log)" >&2; exit 1; } ;;
					change) MEASURE_OK=2 measure plan -detailed-exitcode -var greeting=hi -out=change.tfplan ||
						{ echo "the one-field change ($v, $lines lines) failed or found none (log: $work/terraform.log)" >&2; exit 1; } ;;
					show) measure_cli show change.tfplan || { echo "show ($v, $lines lines) failed (log: $work/terraform.log)" >&2; exit 1; } ;;
					destroy) measure destroy -auto-approve || { echo "destroy ($v, $lines lines) failed (log: $work/terraform.log)" >&2; exit 1; } ;;
					esac
					[ "$step" != change ] || shown[$lines.$v]=$(objects_lines)
					((i > 0)) || continue
					wall[$lines.$v.$step]+="$WALL"$'\n' cpu[$lines.$v.$step]+="$CPU"$'\n'
					((RSS <= ${rss[$lines.$v.$step]:-0})) || rss[$lines.$v.$step]=$RSS
				done
			done
		done
		for step in create change show; do
			for v in "${variants[@]}"; do
				local n=""
				[ "$step" != change ] || n=${shown[$lines.$v]}
				echo "| C: $lines lines: $step ($v) | $(printf '%s' "${wall[$lines.$v.$step]}" | stats) | $(printf '%s' "${cpu[$lines.$v.$step]}" | stats) | ${rss[$lines.$v.$step]:-0} MiB | $n |"
			done
			[ "${#variants[@]}" -lt 2 ] || echo "| C: $lines lines: $step: ratio ours/base, pair by pair | $(ratios "${wall[$lines.ours.$step]}" "${wall[$lines.base.$step]}") | $(ratios "${cpu[$lines.ours.$step]}" "${cpu[$lines.base.$step]}") | | |"
		done
		echo "| C: $lines lines: one-field change / create's plan (ours), pair by pair | $(ratios "${wall[$lines.ours.change]}" "${wall[$lines.ours.create]}") | $(ratios "${cpu[$lines.ours.change]}" "${cpu[$lines.ours.create]}") | | |"
	done
	export TF_CLI_CONFIG_FILE=$ours_rc
}

# bench_helm_vs_peer: workload B and the helm_release peer in turns (ours,
# then the peer, RUNS times after one warm-up pair); the ratio is taken
# pair by pair, so a machine that speeds up or slows down moves both.
bench_helm_vs_peer() {
	local ours peer i t a b as="" bs="" ratios=""
	workload helm
	ours=$WORKDIR
	workload helm-peer
	peer=$WORKDIR
	for ((i = 0; i <= RUNS; i++)); do
		WORKDIR=$ours
		t=$(now)
		tf apply -auto-approve || { echo "workload B failed (log: $work/terraform.log)" >&2; exit 1; }
		a=$(elapsed "$t")
		tf destroy -auto-approve
		WORKDIR=$peer
		t=$(now)
		tf apply -auto-approve || { echo "helm_release peer failed (log: $work/terraform.log)" >&2; exit 1; }
		b=$(elapsed "$t")
		tf destroy -auto-approve
		((i == 0)) && continue
		as+="$a"$'\n' bs+="$b"$'\n'
		ratios+="$(awk -v a="$a" -v b="$b" 'BEGIN {printf "%.3f", a/b}')"$'\n'
	done
	echo "| B: create (terraform apply), this provider | $(printf '%s' "$as" | stats) |"
	echo "| B: the same chart as helm_release (wait = true), hashicorp/helm | $(printf '%s' "$bs" | stats) |"
	echo "| B: ratio this provider / helm_release, pair by pair | $(printf '%s' "$ratios" | stats | sed 's/ s//g') |"
}

# apply_destroy N WHAT: one timed apply (checked to deploy N ConfigMaps)
# and destroy of the current workload; sets APPLIED and DESTROYED (s).
apply_destroy() {
	local t
	t=$(now)
	tf apply -auto-approve || { echo "$2 failed (log: $work/terraform.log)" >&2; exit 1; }
	APPLIED=$(elapsed "$t")
	expect_configmaps "$1"
	t=$(now)
	tf destroy -auto-approve
	DESTROYED=$(elapsed "$t")
}

# bench_scale_vs_kubernetes_peer: PEER_ITEMS independent ConfigMaps as
# one installation (workload S) and as kubernetes_manifest resources
# (hashicorp/kubernetes), apply and destroy in turns, RUNS times after one
# warm-up pair; ratios pair by pair.
bench_scale_vs_kubernetes_peer() {
	local n=${PEER_ITEMS:-20} ours peer ours_ns peer_ns i a ad b bd as="" ads="" bs="" bds="" ra="" rd=""
	workload scale "$n" 1
	ours=$WORKDIR ours_ns=$NAMESPACE
	workload scale-peer "$n"
	peer=$WORKDIR peer_ns=$NAMESPACE
	for ((i = 0; i <= RUNS; i++)); do
		WORKDIR=$ours NAMESPACE=$ours_ns
		apply_destroy "$n" "workload S"
		a=$APPLIED ad=$DESTROYED
		WORKDIR=$peer NAMESPACE=$peer_ns
		apply_destroy "$n" "kubernetes_manifest peer"
		b=$APPLIED bd=$DESTROYED
		((i == 0)) && continue
		as+="$a"$'\n' ads+="$ad"$'\n' bs+="$b"$'\n' bds+="$bd"$'\n'
		ra+="$(awk -v a="$a" -v b="$b" 'BEGIN {printf "%.3f", a/b}')"$'\n'
		rd+="$(awk -v a="$ad" -v b="$bd" 'BEGIN {printf "%.3f", a/b}')"$'\n'
	done
	echo "| command | apply: min / median / max of $RUNS runs (wall) | destroy |"
	echo "|---|---|---|"
	echo "| S: $n ConfigMaps, one installation: apply / destroy | $(printf '%s' "$as" | stats) | $(printf '%s' "$ads" | stats) |"
	echo "| S: $n ConfigMaps as kubernetes_manifest (hashicorp/kubernetes): apply / destroy | $(printf '%s' "$bs" | stats) | $(printf '%s' "$bds" | stats) |"
	echo "| S: ratio this provider / kubernetes_manifest, pair by pair | $(printf '%s' "$ra" | stats | sed 's/ s//g') | $(printf '%s' "$rd" | stats | sed 's/ s//g') |"
}

# snapshot FILE: the API server's apiserver_request_total series.
snapshot() { kc get --raw /metrics | grep '^apiserver_request_total' >"$1"; }
# delta BEFORE AFTER -> "ALL OURS": requests between two snapshots, all of
# them (the /metrics reads of this script left out) and those on what the
# chain workload touches (ConfigMaps, and discovery). The cluster is shared
# with other tests and controllers, so ALL is an upper bound and OURS is
# the figure to quote when they differ.
delta() {
	awk 'FNR == NR {before[$1] = $2; next}
		/subresource="\/metrics"/ {next}
		{d = $2 - before[$1]; all += d}
		/resource="configmaps"/ || /resource="",scope="",subresource="(api|apis|openapi\/v[23])"/ {ours += d}
		END {printf "%d %d", all, ours}' "$1" "$2"
}

# bench_requests: REQ_REPS repetitions of create, no-op plan, no-op apply
# and destroy of workload A; each step's smallest count over the
# repetitions is reported (other clients only ever add requests).
bench_requests() {
	local reps=${REQ_REPS:-3} r step steps=(create plan noop destroy) s="$work/metrics"
	declare -A all ours
	workload chain
	for ((r = 0; r < reps; r++)); do
		snapshot "$s.0"
		tf apply -auto-approve
		snapshot "$s.1"
		expect_configmaps "$ITEMS"
		snapshot "$s.1b"
		tf plan -detailed-exitcode || { echo "a no-op plan found changes (log: $work/terraform.log)" >&2; exit 1; }
		snapshot "$s.2"
		tf apply -auto-approve
		snapshot "$s.3"
		tf destroy -auto-approve
		snapshot "$s.4"
		expect_configmaps 0
		record() {
			local d
			read -r -a d <<<"$(delta "$2" "$3")"
			[ -n "${all[$1]:-}" ] && ((all[$1] <= d[0])) || all[$1]=${d[0]}
			[ -n "${ours[$1]:-}" ] && ((ours[$1] <= d[1])) || ours[$1]=${d[1]}
		}
		record create "$s.0" "$s.1"
		record plan "$s.1b" "$s.2"
		record noop "$s.2" "$s.3"
		record destroy "$s.3" "$s.4"
	done
	declare -A label=([create]="create (terraform apply)" [plan]="no-op terraform plan (refresh = drift check)"
		[noop]="no-op terraform apply (its refresh included)" [destroy]="delete (terraform destroy)")
	echo "| step (fewest of $reps repetitions) | ConfigMap + discovery requests | per object | all requests to the API server | per object |"
	echo "|---|---|---|---|---|"
	for step in "${steps[@]}"; do
		echo "| ${label[$step]} | ${ours[$step]} | $(awk -v d="${ours[$step]}" -v n="$ITEMS" 'BEGIN {printf "%.2f", d/n}') |" \
			"${all[$step]} | $(awk -v d="${all[$step]}" -v n="$ITEMS" 'BEGIN {printf "%.2f", d/n}') |"
	done
}

echo "# tools/bench/run.sh $what: RUNS=$RUNS ITEMS=$ITEMS, $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
if [ "$what" = chain ] || [ "$what" = helm ] || [ "$what" = all ]; then
	echo "| command | min / median / max of $RUNS runs (wall) |"
	echo "|---|---|"
fi
case $what in chain | all) bench_floor && bench_chain ;; esac
case $what in helm | all) bench_helm ;; esac
case $what in helm | all) [ -z "$PEER_HELM" ] || bench_helm_vs_peer ;; esac
case $what in requests | all) echo && bench_requests ;; esac
case $what in scale | all) echo && bench_scale ;; esac
case $what in startup)
	echo "| command | wall: min / median / max of $RUNS runs | CPU (terraform + provider) |"
	echo "|---|---|---|"
	bench_startup_pairs
	;;
esac
case $what in bigchart | all) echo && bench_bigchart ;; esac
case $what in envoy) bench_envoy ;; esac
case $what in scale | all) [ -z "$PEER_KUBERNETES" ] || { echo && bench_scale_vs_kubernetes_peer; } ;; esac
echo "# load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
