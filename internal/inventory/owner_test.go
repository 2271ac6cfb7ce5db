package inventory

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/target"
)

// apiServer serves the one parent Secret it holds (GET) and the
// kube-system namespace; any other request fails the test.
func apiServer(t *testing.T, parent []byte) string {
	t.Helper()
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch {
		case r.Method == http.MethodGet && r.URL.Path == "/api/v1/namespaces/ns/secrets/"+ParentName("root"):
			_, _ = w.Write(parent)
		case r.Method == http.MethodGet && r.URL.Path == "/api/v1/namespaces/kube-system":
			_, _ = w.Write([]byte(`{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"kube-system","uid":"cluster-uid"}}`))
		default:
			t.Errorf("unexpected request %s %s", r.Method, r.URL.Path)
			w.WriteHeader(http.StatusForbidden)
		}
	}))
	t.Cleanup(srv.Close)
	u, _ := url.Parse(srv.URL)
	return u.Port()
}

// The reconcile job's owner is picked (Owner) before any signature is
// checked, so a planted parent naming a newer instance is picked. That
// gains nothing but the denial of service altering or deleting a record
// already gives: the job's first read of the parents verifies them
// (SignWith(key, true)) and refuses the planted one, naming it, before
// anything is applied or written.
func TestOwner_PlantedNewerInstanceAppliesNothing(t *testing.T) {
	e, err := newEntry(RecordedItem{ID: "root/a", Name: "a", Type: "landscaper.gardener.cloud/kubernetes-manifest", Config: []byte(`{"planted":true}`)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	c := content{installation: "root", instance: "ffffffff-ffff-7fff-bfff-ffffffffffff", items: []entry{e}} // unsigned
	u, err := c.object(ParentName("root"), "ns")
	if err != nil {
		t.Fatal(err)
	}
	u.SetAPIVersion("v1")
	u.SetKind("Secret")
	planted, err := json.Marshal(u.Object)
	if err != nil {
		t.Fatal(err)
	}
	tg := clusterTarget(t, apiServer(t, planted))
	pool := target.NewPool()
	ctx := context.Background()

	owner, err := Owner(ctx, pool, "root", []api.Target{tg})
	if err != nil || owner != c.instance {
		t.Fatalf("owner = %q, %v; want the planted instance (picked before verification)", owner, err)
	}
	r := NewRecorder(pool, "root", owner)
	r.SignWith(testKey(1), true)
	snap, err := r.Rebuild(ctx, []api.Target{tg})
	if !errors.Is(err, ErrUnsigned) || !strings.Contains(err.Error(), "ns/"+ParentName("root")) || snap != nil {
		t.Fatalf("Rebuild = %v, %v; want the planted record refused, naming it", snap, err)
	}
}
