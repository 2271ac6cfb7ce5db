package target

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"k8s.io/client-go/kubernetes"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/failure"
)

const kubeconfig = `apiVersion: v1
kind: Config
clusters:
- name: c
  cluster: {server: "https://127.0.0.1:6443", insecure-skip-tls-verify: true}
users:
- name: u
  user: {token: very-secret-token-value}
contexts:
- name: c
  context: {cluster: c, user: u, namespace: team-a}
current-context: c
`

func targetWith(t *testing.T, kc string) *api.Target {
	t.Helper()
	cfg, err := json.Marshal(api.KubernetesClusterConfig{Kubeconfig: kc})
	if err != nil {
		t.Fatal(err)
	}
	tg := api.NewTarget("cluster", "", api.KubernetesClusterTargetType, cfg)
	return &tg
}

// TestPoolClients_SharedPerKubeconfig: one set of clients per distinct
// kubeconfig, with the pool's rate limit and the kubeconfig's namespace.
func TestPoolClients_SharedPerKubeconfig(t *testing.T) {
	wrapped := 0
	p := NewPool(WithWrapTransport(func(rt http.RoundTripper) http.RoundTripper { wrapped++; return rt }))
	a, err := p.Clients(targetWith(t, kubeconfig))
	if err != nil {
		t.Fatal(err)
	}
	b, err := p.Clients(targetWith(t, kubeconfig))
	if err != nil {
		t.Fatal(err)
	}
	if a != b {
		t.Fatal("the same kubeconfig got two sets of clients")
	}
	other, err := p.Clients(targetWith(t, strings.Replace(kubeconfig, "6443", "6444", 1)))
	if err != nil {
		t.Fatal(err)
	}
	if other == a {
		t.Fatal("different kubeconfigs share clients")
	}
	if a.Config.QPS != DefaultQPS || a.Config.Burst != DefaultBurst {
		t.Fatalf("QPS/burst = %v/%v, want %v/%v", a.Config.QPS, a.Config.Burst, DefaultQPS, DefaultBurst)
	}
	if a.Namespace != "team-a" {
		t.Fatalf("namespace = %q, want team-a", a.Namespace)
	}
	if a.Config.WrapTransport == nil {
		t.Fatal("WithWrapTransport was not applied")
	}
}

// TestPoolClients_InvalidTargets: targets that can never work are terminal
// errors that never contain the kubeconfig.
func TestPoolClients_InvalidTargets(t *testing.T) {
	wrongType := targetWith(t, kubeconfig)
	wrongType.Spec.Type = "landscaper.gardener.cloud/mock"
	badConfig := targetWith(t, kubeconfig)
	badConfig.Spec.Config = json.RawMessage(`"just a string"`)
	for _, tc := range []struct {
		name    string
		target  *api.Target
		mention string
	}{
		{"Missing", nil, "names no target"},
		{"WrongType", wrongType, "landscaper.gardener.cloud/mock"},
		{"ConfigNotObject", badConfig, "config is not"},
		{"EmptyKubeconfig", targetWith(t, " "), "empty"},
		{"NotYAML", targetWith(t, "users: [very-secret-token-value: {"), "cannot be parsed"},
		{"NoCurrentContext", targetWith(t, strings.Replace(kubeconfig, "current-context: c", "current-context: nope", 1)), "not usable"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := NewPool().Clients(tc.target)
			if !failure.IsTerminal(err) || !strings.Contains(err.Error(), tc.mention) {
				t.Fatalf("Clients = %v, want a terminal error mentioning %q", err, tc.mention)
			}
			if strings.Contains(err.Error(), "very-secret-token-value") {
				t.Fatalf("error leaks the kubeconfig: %v", err)
			}
		})
	}
}

// TestPoolClients_NoRateLimit: a rate limit of zero (the provider's
// cluster_qps default) means no client-side limit, not client-go's
// default of 5 requests per second that a zero QPS would give.
func TestPoolClients_NoRateLimit(t *testing.T) {
	for _, qps := range []float32{0, -1} {
		c, err := NewPool(WithRateLimit(qps, 0)).Clients(targetWith(t, kubeconfig))
		if err != nil {
			t.Fatal(err)
		}
		if c.Config.QPS >= 0 || c.Config.RateLimiter != nil {
			t.Fatalf("WithRateLimit(%v, 0): QPS %v, rate limiter %v; want a negative QPS (no limit) and none", qps, c.Config.QPS, c.Config.RateLimiter)
		}
		cs, err := kubernetes.NewForConfig(c.Config)
		if err != nil {
			t.Fatal(err)
		}
		if rl := cs.CoreV1().RESTClient().GetRateLimiter(); rl != nil {
			t.Fatalf("WithRateLimit(%v, 0): a client built from the config throttles at %v/s", qps, rl.QPS())
		}
	}
}
