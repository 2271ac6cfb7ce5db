package template

import (
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/target"
)

// fakeGarden is a garden cluster's API server that answers only
// Gardener's shoots/adminkubeconfig subresource, as Gardener does: an
// AdminKubeconfigRequest in, the shoot's admin kubeconfig (base64) and
// its expiration out.
type fakeGarden struct {
	srv      *httptest.Server
	mu       sync.Mutex
	requests []map[string]any
}

const shootAdminToken = "shoot-admin-token-0123456789"

var shootKubeconfig = `apiVersion: v1
kind: Config
clusters:
- name: shoot
  cluster: {server: "https://api.shoot.example"}
contexts:
- name: shoot
  context: {cluster: shoot, user: admin}
current-context: shoot
users:
- name: admin
  user: {token: ` + shootAdminToken + `}
`

func newFakeGarden(t *testing.T, expires time.Time) *fakeGarden {
	g := &fakeGarden{}
	g.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.URL.Path != "/apis/core.gardener.cloud/v1beta1/namespaces/garden-shop/shoots/prod/adminkubeconfig" {
			http.Error(w, `{"kind":"Status","apiVersion":"v1","status":"Failure","reason":"NotFound","code":404}`, http.StatusNotFound)
			return
		}
		body, _ := io.ReadAll(r.Body)
		var req map[string]any
		if err := json.Unmarshal(body, &req); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		g.mu.Lock()
		g.requests = append(g.requests, req)
		g.mu.Unlock()
		req["status"] = map[string]any{
			"kubeconfig":          base64.StdEncoding.EncodeToString([]byte(shootKubeconfig)),
			"expirationTimestamp": expires.UTC().Format(time.RFC3339),
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusCreated)
		_ = json.NewEncoder(w).Encode(req)
	}))
	t.Cleanup(g.srv.Close)
	return g
}

// Clients implements ClusterAccess: every target reaches the fake garden.
func (g *fakeGarden) Clients(*api.Target) (*target.Clients, error) {
	dyn, err := dynamic.NewForConfig(&rest.Config{Host: g.srv.URL})
	if err != nil {
		return nil, err
	}
	return &target.Clients{Dynamic: dyn}, nil
}

// TestShootAdminKubeconfig_FakeGarden proves both engines' export
// executions get a shoot's admin kubeconfig from Gardener's
// shoots/adminkubeconfig subresource, as Landscaper does (base64, with
// the expiration on request), that its credentials are learned as
// secrets, and that a deploy execution, rendered at plan, refuses the
// call naming what to do instead.
func TestShootAdminKubeconfig_FakeGarden(t *testing.T) {
	expires := time.Now().Add(10 * time.Minute).Truncate(time.Second)
	garden := newFakeGarden(t, expires)
	gardenTarget := map[string]any{"apiVersion": "landscaper.gardener.cloud/v1alpha1", "kind": "Target",
		"spec": map[string]any{"type": api.KubernetesClusterTargetType, "config": map[string]any{"kubeconfig": "garden"}}}
	templates := map[string]string{
		TypeGoTemplate: `{{ $k := getShootAdminKubeconfigWithExpirationTimestamp "prod" "garden-shop" 600 .garden }}
exports:
  kubeconfig: {{ getShootAdminKubeconfig "prod" "garden-shop" 600 .garden | b64dec | quote }}
  expires: {{ $k.expirationTimestampReadable | quote }}`,
		TypeSpiff: `k: (( getShootAdminKubeconfigWithExpirationTimestamp("prod", "garden-shop", 600, garden) ))
exports:
  kubeconfig: (( base64_decode(getShootAdminKubeconfig("prod", "garden-shop", 600, garden)) ))
  expires: (( k.expirationTimestampReadable ))`,
	}
	for typ, tmpl := range templates {
		t.Run(typ, func(t *testing.T) {
			var mu sync.Mutex
			var learned []string
			clusters := LearningClusters{ClusterAccess: garden, Learn: func(v ...string) { mu.Lock(); learned = append(learned, v...); mu.Unlock() }}
			res, err := Run(Request{Kind: "export execution", Execution: inline(typ, tmpl), Cluster: clusters,
				Values: map[string]any{"garden": gardenTarget}})
			if err != nil {
				t.Fatal(err)
			}
			exports, _ := res.Output["exports"].(map[string]any)
			if exports["kubeconfig"] != shootKubeconfig {
				t.Errorf("kubeconfig = %q, want the shoot's admin kubeconfig", exports["kubeconfig"])
			}
			if exports["expires"] != expires.UTC().Format(time.RFC3339) {
				t.Errorf("expirationTimestampReadable = %v, want %s", exports["expires"], expires.UTC().Format(time.RFC3339))
			}
			mu.Lock()
			defer mu.Unlock()
			if !slices.Contains(learned, shootAdminToken) || !slices.Contains(learned, base64.StdEncoding.EncodeToString([]byte(shootKubeconfig))) {
				t.Errorf("learned %d values, want the admin token and the encoded kubeconfig among them", len(learned))
			}
			if slices.Contains(learned, "kind: Config") || slices.Contains(learned, shootKubeconfig) {
				t.Error("the kubeconfig's text was learned as a secret: every message quoting \"kind: Config\" would be masked")
			}
		})
	}
	garden.mu.Lock()
	for _, r := range garden.requests {
		spec, _ := r["spec"].(map[string]any)
		if r["kind"] != "AdminKubeconfigRequest" || r["apiVersion"] != "authentication.gardener.cloud/v1alpha1" || spec["expirationSeconds"] != float64(600) {
			t.Errorf("request %v, want an AdminKubeconfigRequest for 600 seconds", r)
		}
	}
	if len(garden.requests) != 4 {
		t.Errorf("%d admin kubeconfig requests, want 4 (two per engine)", len(garden.requests))
	}
	garden.mu.Unlock()

	_, err := Run(Request{Kind: "deploy execution", Execution: inline(TypeGoTemplate, templates[TypeGoTemplate]), Values: map[string]any{"garden": gardenTarget}})
	if err == nil || !strings.Contains(err.Error(), "only export executions have") || !strings.Contains(err.Error(), "call it in an export execution") {
		t.Errorf("a deploy execution's call: %v, want the refusal naming the export execution instead", err)
	}
}
