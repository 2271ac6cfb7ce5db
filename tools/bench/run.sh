#!/usr/bin/env bash
# Whole-command benchmarks of the provider against the local cluster
# (`make bench`; not part of `make test`). Results and how to read them:
# tools/bench/RESULTS.md.
#
#   tools/bench/run.sh [chain|helm|requests|all]     (default: all)
#
#   chain     workload A: one installation, 20 ConfigMap deploy items chained
#             with dependsOn; times `terraform apply` (create) and
#             `terraform destroy` (delete) separately, RUNS times each.
#   helm      workload B: a Helm release of a 2-replica Deployment, waited
#             for until ready; times create (and destroy), and reads how
#             long the rollout itself took in the cluster.
#   requests  API requests per object: apiserver_request_total before and
#             after a create of workload A, a no-op plan, a no-op apply and
#             a destroy.
#
# Environment: RUNS (default 5) timed runs after one warm-up run;
# ITEMS (default 20) length of the chain. Every run uses a fresh, uniquely
# named namespace, and everything is destroyed and deleted on exit.
set -euo pipefail

repo=$(cd "$(dirname "$0")/../.." && pwd)
cd "$repo"

RUNS=${RUNS:-5}
ITEMS=${ITEMS:-20}
what=${1:-all}
case $what in chain | helm | requests | all) ;; *)
	echo "usage: $0 [chain|helm|requests|all]" >&2
	exit 2
	;;
esac

terraform="$repo/.tools/bin/terraform"
kubeconfig="$repo/.cluster/kubeconfig"
bench_dir="$repo/.tools/bench"
provider_dir="$bench_dir/provider"
kc() { kubectl --kubeconfig "$kubeconfig" "$@"; }

[ -x "$terraform" ] || tools/testenv/install.sh terraform
kc get --raw /readyz >/dev/null 2>&1 || make --no-print-directory cluster-up

mkdir -p "$provider_dir"
go build -o "$provider_dir/terraform-provider-landscaper" .

# dev_overrides: Terraform uses the binary just built, offline, no init.
export TF_CLI_CONFIG_FILE="$bench_dir/terraformrc" TF_IN_AUTOMATION=1
cat >"$TF_CLI_CONFIG_FILE" <<TFRC
provider_installation {
  dev_overrides {
    "registry.terraform.io/landscaper-terraform/landscaper" = "$provider_dir"
  }
  direct {}
}
TFRC

run_id="$(date -u +%Y%m%d%H%M%S)-$$"
work="$bench_dir/work/$run_id"
mkdir -p "$work"
namespaces=()
workdirs=()

# cleanup destroys whatever a workload left (also after a failure or ^C)
# and deletes the namespaces, so the cluster is as it was.
cleanup() {
	local dir ns
	for dir in "${workdirs[@]}"; do
		if [ -s "$dir/terraform.tfstate" ] && grep -q '"resources": \[$' "$dir/terraform.tfstate"; then
			"$terraform" -chdir="$dir" destroy -auto-approve -input=false -no-color >/dev/null ||
				echo "cleanup: terraform destroy failed in $dir" >&2
		fi
	done
	for ns in "${namespaces[@]}"; do
		kc delete namespace "$ns" --ignore-not-found --wait=false >/dev/null || true
	done
	rm -rf "$work"
}
trap cleanup EXIT

# workload NAME -> prints the path of a fresh copy of tools/bench/workloads/NAME
# bound to a new namespace.
workload() {
	local name=$1 ns="bench-$1-$run_id-${RANDOM}" dir="$work/$1-${#workdirs[@]}"
	kc create namespace "$ns" >/dev/null
	namespaces+=("$ns")
	cp -r "tools/bench/workloads/$name" "$dir"
	printf 'kubeconfig_path = "%s"\nnamespace = "%s"\n' "$kubeconfig" "$ns" >"$dir/terraform.tfvars"
	[ "$name" != chain ] || printf 'item_count = %s\n' "$ITEMS" >>"$dir/terraform.tfvars"
	workdirs+=("$dir")
	WORKDIR=$dir NAMESPACE=$ns
}

tf() { "$terraform" -chdir="$WORKDIR" "$@" -input=false -no-color >>"$work/terraform.log" 2>&1; }
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
# create/destroy pairs of the current workload; sets CREATE and DELETE.
timed_pairs() {
	local i t create="" delete=""
	for ((i = 0; i <= RUNS; i++)); do
		t=$(now)
		tf apply -auto-approve
		((i == 0)) || create+="$(elapsed "$t")"$'\n'
		$1
		t=$(now)
		tf destroy -auto-approve
		((i == 0)) || delete+="$(elapsed "$t")"$'\n'
		$2
	done
	CREATE=$(printf '%s' "$create" | stats)
	DELETE=$(printf '%s' "$delete" | stats)
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
assert d["status"].get("readyReplicas") == 2 and avail, "Deployment bench-web is not ready"
print((ts(avail[0]["lastTransitionTime"]) - ts(d["metadata"]["creationTimestamp"])).total_seconds())'
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
	kc rollout status deployment/bench-ref -n "$NAMESPACE" --timeout=5m >/dev/null
	elapsed "$t"
	kc delete deployment bench-ref -n "$NAMESPACE" --wait=true >/dev/null
}

bench_helm() {
	workload helm
	local rollouts=""
	no_check() { :; }
	record_rollout() { rollouts+="$(rollout_seconds)"$'\n'; }
	timed_pairs record_rollout no_check
	echo "| B: create Helm release, 2-replica Deployment ready (terraform apply) | $CREATE |"
	echo "| B: delete it (terraform destroy) | $DELETE |"
	echo "| B: rollout in the cluster (Deployment created -> Available, 1 s resolution) | $(printf '%s' "$rollouts" | stats) |"
	local ref="" i
	for ((i = 0; i < RUNS; i++)); do ref+="$(kubectl_rollout)"$'\n'; done
	echo "| B: same Deployment by kubectl apply + rollout status | $(printf '%s' "$ref" | stats) |"
}

# requests_total: apiserver_request_total summed over all series, without
# the /metrics reads of this script.
requests_total() {
	kc get --raw /metrics | awk '/^apiserver_request_total/ && !/subresource="\/metrics"/ {s += $NF} END {printf "%d", s}'
}
# per_object STEP BEFORE AFTER: a table row with the delta divided by ITEMS.
per_object() {
	echo "| $1 | $(($3 - $2)) | $(awk -v d="$(($3 - $2))" -v n="$ITEMS" 'BEGIN {printf "%.2f", d/n}') |"
}

bench_requests() {
	workload chain
	local idle r0 r1 r1b r2 r3 r4
	r0=$(requests_total)
	sleep 2
	idle=$(($(requests_total) - r0))
	r0=$(requests_total)
	tf apply -auto-approve
	r1=$(requests_total)
	expect_configmaps "$ITEMS"
	r1b=$(requests_total)
	tf plan -detailed-exitcode || { echo "a no-op plan found changes (log: $work/terraform.log)" >&2; exit 1; }
	r2=$(requests_total)
	tf apply -auto-approve
	r3=$(requests_total)
	tf destroy -auto-approve
	r4=$(requests_total)
	echo "| step | API requests (whole cluster) | per object |"
	echo "|---|---|---|"
	per_object "create (apply)" "$r0" "$r1"
	per_object "no-op plan" "$r1b" "$r2"
	per_object "no-op apply (its plan included)" "$r2" "$r3"
	per_object "delete (destroy)" "$r3" "$r4"
	echo "| background: an idle 2 s, for comparison | $idle | |"
}

echo "# tools/bench/run.sh $what: RUNS=$RUNS ITEMS=$ITEMS, $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
if [ "$what" = chain ] || [ "$what" = helm ] || [ "$what" = all ]; then
	echo "| command | min / median / max of $RUNS runs (wall) |"
	echo "|---|---|"
fi
case $what in chain | all) bench_chain ;; esac
case $what in helm | all) bench_helm ;; esac
case $what in requests | all) echo && bench_requests ;; esac
echo "# load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
