package snapshot

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
)

// benchTree is a snapshot the size of tools/bench's scale workload: items
// ConfigMap deploy items under one root, each applied with the root's
// kubernetes-cluster target (a kubeconfig with client certificates, ~5 KB)
// and a provider status listing its object.
func benchTree(items int) *Snapshot {
	cert := base64.StdEncoding.EncodeToString([]byte(strings.Repeat("certificate-bytes-", 70)))
	kubeconfig := fmt.Sprintf("apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster:\n    server: https://127.0.0.1:6443\n    certificate-authority-data: %s\ncontexts:\n- name: c\n  context: {cluster: c, user: u}\ncurrent-context: c\nusers:\n- name: u\n  user:\n    client-certificate-data: %s\n    client-key-data: %s\n", cert, cert, cert)
	cfg, _ := json.Marshal(api.KubernetesClusterConfig{Kubeconfig: kubeconfig})
	cluster := api.NewTarget("bench", "", api.KubernetesClusterTargetType, cfg)
	root := &Installation{Path: "scale-0", Name: "scale-0", Phase: api.InstallationPhaseSucceeded, JobID: "j", JobIDFinished: "j",
		ImportsHash: "h", Targets: TargetImports{Single: map[string]api.Target{"cluster": cluster}},
		Exports:   map[string]any{"count": json.Number("1000"), "names": []any{"a", "b"}},
		Execution: &Execution{Phase: api.ExecutionPhaseSucceeded, JobID: "j", JobIDFinished: "j"}}
	for i := 0; i < items; i++ {
		applied := cluster
		name := fmt.Sprintf("cm-%d", i)
		root.Execution.DeployItems = append(root.Execution.DeployItems, &DeployItem{
			ID: "scale-0/" + name, Name: name, Type: "landscaper.gardener.cloud/kubernetes-manifest",
			Target: &api.TargetSelector{Import: "cluster"}, AppliedTarget: &applied,
			Config:     json.RawMessage(fmt.Sprintf(`{"apiVersion":"manifest.deployer.landscaper.gardener.cloud/v1alpha2","kind":"ProviderConfiguration","updateStrategy":"update","manifests":[{"policy":"manage","manifest":{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"i0-%d","namespace":"bench"},"data":{"index":"%d"}}}]}`, i, i)),
			ConfigHash: "0123456789abcdef0123456789abcdef",
			Phase:      api.DeployItemPhaseSucceeded, JobID: "j", JobIDFinished: "j",
			ProviderStatus:    json.RawMessage(fmt.Sprintf(`{"apiVersion":"manifest.deployer.landscaper.gardener.cloud/v1alpha2","kind":"ProviderStatus","managedResources":[{"policy":"manage","resource":{"apiVersion":"v1","kind":"ConfigMap","name":"i0-%d","namespace":"bench","uid":"6f1c2a8e-0000-4000-8000-%012d"}}]}`, i, i)),
			AppliedConfigHash: "0123456789abcdef0123456789abcdef",
		})
	}
	return &Snapshot{Version: Version, Root: root}
}

// BenchmarkCodec is the private-state codec on a 1,000-item tree: what
// every apply pays once (Marshal) and every plan, apply and destroy pays
// per resource (Unmarshal).
func BenchmarkCodec(b *testing.B) {
	s := benchTree(1000)
	doc, err := Marshal(s)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("Marshal", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(doc)))
		defer reportCPU(b)()
		for b.Loop() {
			if _, err := Marshal(s); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("Unmarshal", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(doc)))
		defer reportCPU(b)()
		for b.Loop() {
			if _, err := Unmarshal(doc); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// reportCPU reports the process's CPU time (user + system, GC included)
// per op: on a machine shared with other work the wall time per op
// measures the machine, the CPU time the code.
func reportCPU(b *testing.B) func() {
	start := cpuTime()
	return func() {
		b.ReportMetric(float64((cpuTime()-start).Microseconds())/1000/float64(b.N), "cpu-ms/op")
	}
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
