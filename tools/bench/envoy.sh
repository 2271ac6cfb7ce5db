# Workload E (issue 34 item 9), sourced by tools/bench/run.sh for its
# `envoy` target: envoy gateway's public chart (gateway-helm) installed by
# this provider (tools/bench/workloads/envoy), by hashicorp/helm's
# helm_release (workloads/envoy-peer) and by `helm install --wait`, in
# turns, whole-command wall time, ratios pair by pair.
#
# Everything it needs it fetches and builds itself through the Go module
# proxy, once, into the cache (keyed by version; never into the clone):
#   ENVOY_VERSION (default v1.9.0): the chart is charts/gateway-helm of the
#     Go module github.com/envoyproxy/gateway at that version, its
#     values.yaml made from values.tmpl.yaml as the project's own
#     `make helm-package` does (envsubst of the image and its pull policy)
#     and Chart.yaml's version set to it.
#   PEER_HELM: a built hashicorp/helm provider; else PEER_HELM_VERSION of
#     github.com/hashicorp/terraform-provider-helm is built (the proxy
#     serves only pseudo-versions of its main branch: the module path lacks
#     /v3; the default is the one RESULTS.md's other peer figures use).
#   the helm CLI at the version of helm.sh/helm/v3 in go.mod.
# The chart's CRDs (Helm leaves them at uninstall) are deleted after every
# run, untimed, so each install creates them, as a first install does.

bench_cache=${XDG_CACHE_HOME:-$HOME/.cache}/terraform-provider-landscaper/bench
ENVOY_VERSION=${ENVOY_VERSION:-v1.9.0}
PEER_HELM_VERSION=${PEER_HELM_VERSION:-v1.3.3-0.20260629194918-a4f1c1d8b008}

# module_dir MODULE@VERSION: the module's folder in the module cache.
module_dir() {
	GOFLAGS=-mod=mod go mod download -json "$1" | python3 -c 'import json, sys; d = json.load(sys.stdin); print(d["Dir"]) if "Dir" in d else sys.exit(d.get("Error", "no Dir"))'
}

# envoy_chart: prints the prepared chart's folder (cached).
envoy_chart() {
	local out="$bench_cache/envoy-gateway-helm-$ENVOY_VERSION" src
	if [ ! -f "$out/gateway-helm/values.yaml" ]; then
		src=$(cd /tmp && module_dir "github.com/envoyproxy/gateway@$ENVOY_VERSION")
		rm -rf "$out.tmp" && mkdir -p "$out.tmp"
		cp -r "$src/charts/gateway-helm" "$out.tmp/"
		chmod -R u+w "$out.tmp"
		GatewayImage="docker.io/envoyproxy/gateway:$ENVOY_VERSION" GatewayImagePullPolicy=IfNotPresent \
			envsubst <"$out.tmp/gateway-helm/values.tmpl.yaml" >"$out.tmp/gateway-helm/values.yaml"
		rm "$out.tmp/gateway-helm/values.tmpl.yaml"
		sed -i -e "s/^version: .*/version: $ENVOY_VERSION/" -e "s/^appVersion: .*/appVersion: \"$ENVOY_VERSION\"/" "$out.tmp/gateway-helm/Chart.yaml"
		rm -rf "$out" && mv "$out.tmp" "$out"
	fi
	echo "$out/gateway-helm"
}

# helm_cli: prints the path of the helm CLI of go.mod's Helm (cached).
helm_cli() {
	local v out
	v=$(go list -m -f '{{.Version}}' helm.sh/helm/v3)
	out="$bench_cache/helm-$v"
	if [ ! -x "$out/helm" ]; then
		mkdir -p "$out"
		(cd /tmp && GOBIN="$out" GOFLAGS=-mod=mod go install -trimpath -ldflags "-s -w" "helm.sh/helm/v3/cmd/helm@$v") >&2
	fi
	echo "$out/helm"
}

# peer_helm: prints the path of the hashicorp/helm provider (PEER_HELM, or
# built and cached).
peer_helm() {
	if [ -n "${PEER_HELM:-}" ]; then
		echo "$PEER_HELM"
		return
	fi
	local out="$bench_cache/terraform-provider-helm-$PEER_HELM_VERSION" src
	if [ ! -x "$out/terraform-provider-helm" ]; then
		src=$(cd /tmp && module_dir "github.com/hashicorp/terraform-provider-helm@$PEER_HELM_VERSION")
		rm -rf "$out.src" && cp -r "$src" "$out.src" && chmod -R u+w "$out.src"
		echo "building hashicorp/helm $PEER_HELM_VERSION (several minutes, once)" >&2
		(cd "$out.src" && go build -trimpath -ldflags "-s -w" -o "$out/terraform-provider-helm" .) >&2
		rm -rf "$out.src"
	fi
	echo "$out/terraform-provider-helm"
}

# new_crds BASELINE: CustomResourceDefinitions not in the file BASELINE.
new_crds() { kc get crd -o name | sort | comm -13 "$1" - || true; }

# drop_crds BASELINE: deletes them and waits until they are gone. A CRD
# deleted right after it was created can stay Terminating for minutes
# ("could not list instances: storage is (re)initializing", retried with
# back-off); the chart creates no instances, so after 10 s its finalizer
# is removed.
drop_crds() {
	local crds i
	crds=$(new_crds "$1")
	[ -n "$crds" ] || return 0
	kc delete $crds --wait=false >/dev/null
	for ((i = 0; i < 100; i++)); do
		crds=$(new_crds "$1")
		[ -n "$crds" ] || return 0
		((i != 20)) || for c in $crds; do
			kc patch "$c" --type=merge -p '{"metadata":{"finalizers":[]}}' >/dev/null 2>&1 || true
		done
		sleep 0.5
	done
	echo "CRDs still there: $crds" >&2
	return 1
}

# envoy_cleanup: run by cleanup: a release helm install left, the CRDs.
envoy_helm_ns="" envoy_helm="" envoy_crds=""
envoy_cleanup() {
	[ -z "$envoy_helm_ns" ] || "$envoy_helm" uninstall eg -n "$envoy_helm_ns" --kubeconfig "$kubeconfig" --ignore-not-found --wait >/dev/null 2>&1 || true
	[ -z "$envoy_crds" ] || drop_crds "$envoy_crds" || true
}

# bench_envoy: RUNS rounds after one warm-up round, each round ours (and
# BASE_REV's build), helm_release and helm install --wait, one after the
# other, each a fresh install (CRDs included) followed by its removal.
bench_envoy() {
	local chart helm peer ours_dir base_dir_w peer_dir_w helm_ns baseline="$work/crds.baseline" i v t a c
	declare -A walls cpus
	chart=$(envoy_chart)
	helm=$(helm_cli)
	peer=$(peer_helm)
	mkdir -p "$peer_dir" && cp "$peer" "$peer_dir/terraform-provider-helm"
	"$helm" lint "$chart" >/dev/null || { echo "helm lint of $chart failed" >&2; exit 1; }
	kc get crd -o name | sort >"$baseline"
	workload envoy
	mkdir -p "$WORKDIR/blueprint/charts" && cp -r "$chart" "$WORKDIR/blueprint/charts/"
	ours_dir=$WORKDIR
	base_dir_w=""
	if [ -n "$BASE_REV" ]; then
		workload envoy
		mkdir -p "$WORKDIR/blueprint/charts" && cp -r "$chart" "$WORKDIR/blueprint/charts/"
		base_dir_w=$WORKDIR
	fi
	workload envoy-peer
	cp -r "$chart" "$WORKDIR/"
	peer_dir_w=$WORKDIR
	helm_ns="bench-envoy-helm-$run_id"
	kc create namespace "$helm_ns" >/dev/null
	namespaces+=("$helm_ns")
	envoy_helm_ns=$helm_ns envoy_helm=$helm envoy_crds=$baseline
	local variants=(ours)
	[ -z "$base_dir_w" ] || variants+=(base)
	variants+=(peer helm)
	for ((i = 0; i <= RUNS; i++)); do
		for v in "${variants[@]}"; do
			export TF_CLI_CONFIG_FILE=$ours_rc
			case $v in
			ours) WORKDIR=$ours_dir ;;
			base) WORKDIR=$base_dir_w TF_CLI_CONFIG_FILE=$base_rc ;;
			peer) WORKDIR=$peer_dir_w ;;
			esac
			t=$(now)
			if [ "$v" = helm ]; then
				/usr/bin/time -f '%U %S' -o "$work/time" "$helm" install eg "$chart" -n "$helm_ns" --kubeconfig "$kubeconfig" --wait --timeout 4m >"$work/terraform.log" 2>&1 ||
					{ echo "helm install --wait failed (log: $work/terraform.log)" >&2; exit 1; }
			else
				/usr/bin/time -f '%U %S' -o "$work/time" "$terraform" -chdir="$WORKDIR" apply -auto-approve -input=false -no-color >"$work/terraform.log" 2>&1 ||
					{ echo "envoy ($v) failed (log: $work/terraform.log)" >&2; exit 1; }
			fi
			a=$(elapsed "$t")
			c=$(grep -E '^[0-9.]+ [0-9.]+$' "$work/time" | tail -n 1 | awk '{printf "%.2f", $1 + $2}')
			[ -n "$c" ] && [ "$c" != 0.00 ] || echo "run $i ($v): no CPU time read ($(tr '\n' ' ' <"$work/time"))" >&2
			if [ "$v" = helm ]; then
				"$helm" uninstall eg -n "$helm_ns" --kubeconfig "$kubeconfig" --wait >/dev/null
			else
				tf destroy -auto-approve || { echo "envoy ($v) destroy failed (log: $work/terraform.log)" >&2; exit 1; }
			fi
			drop_crds "$baseline"
			((i == 0)) || walls[$v]+="$a"$'\n' cpus[$v]+="$c"$'\n'
		done
	done
	export TF_CLI_CONFIG_FILE=$ours_rc
	# CPU: user + system of the command and every process it waited for
	# (the providers, the sandbox's renderers); the API server's work,
	# the same for all, is not in it.
	echo "| E: envoy gateway-helm $ENVOY_VERSION, fresh install with its CRDs | wall: min / median / max of $RUNS runs | CPU (client side) |"
	echo "|---|---|---|"
	declare -A label=([ours]="this provider (terraform apply)" [base]="this provider at $BASE_REV (terraform apply)"
		[peer]="helm_release, wait = true (terraform apply)" [helm]="helm install --wait")
	for v in "${variants[@]}"; do
		echo "| E: ${label[$v]} | $(printf '%s' "${walls[$v]}" | stats) | $(printf '%s' "${cpus[$v]}" | stats) |"
	done
	echo "| E: ratio this provider / helm_release, pair by pair | $(ratios "${walls[ours]}" "${walls[peer]}") | $(ratios "${cpus[ours]}" "${cpus[peer]}") |"
	echo "| E: ratio this provider / helm install --wait, pair by pair | $(ratios "${walls[ours]}" "${walls[helm]}") | $(ratios "${cpus[ours]}" "${cpus[helm]}") |"
	if [ -n "$base_dir_w" ]; then
		echo "| E: ratio $BASE_REV / helm_release, pair by pair | $(ratios "${walls[base]}" "${walls[peer]}") | $(ratios "${cpus[base]}" "${cpus[peer]}") |"
		echo "| E: ratio $BASE_REV / helm install --wait, pair by pair | $(ratios "${walls[base]}" "${walls[helm]}") | $(ratios "${cpus[base]}" "${cpus[helm]}") |"
		echo "| E: ratio this provider / $BASE_REV, pair by pair | $(ratios "${walls[ours]}" "${walls[base]}") | $(ratios "${cpus[ours]}" "${cpus[base]}") |"
	fi
}
