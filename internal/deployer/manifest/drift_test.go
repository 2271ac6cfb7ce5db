package manifest_test

import (
	"context"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/testsupport/localcluster"
)

// TestDrift_OneListPerKind: three ConfigMaps of one item are read with one
// list by the owner label, not three reads; a changed value, a removed
// label and a deleted object are each reported by name.
func TestDrift_OneListPerKind(t *testing.T) {
	ns := localcluster.Namespace(t)
	log := &requestLog{}
	it := newLoggedItem(t, "drift-list", log)
	cfg := config(t, []map[string]any{
		entry("manage", cm(ns, "a", map[string]any{"v": "1"})),
		entry("manage", cm(ns, "b", map[string]any{"v": "1"})),
		entry("manage", cm(ns, "c", map[string]any{"v": "1"})),
	}, nil)
	it.mustApply(cfg)
	drift := func() deployer.DriftReport {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		r, err := it.d.Drift(ctx, it.di(cfg))
		if err != nil {
			t.Fatalf("Drift: %v", err)
		}
		return r
	}
	log.reset()
	if r := drift(); r.Drifted {
		t.Fatalf("Drift right after Apply: %s", r.Reason)
	}
	cms := "/namespaces/" + ns + "/configmaps"
	if got := log.count("GET", cms+"?", "labelSelector="); got != 1 {
		t.Errorf("%d owner-label lists, want 1:\n%s", got, strings.Join(log.lines, "\n"))
	}
	if got := log.count("GET", cms+"/"); got != 0 {
		t.Errorf("%d reads by name besides the list, want 0:\n%s", got, strings.Join(log.lines, "\n"))
	}

	client := dyn(t).Resource(configMaps).Namespace(ns)
	for _, tc := range []struct{ name, patch, want string }{
		{"b", `{"data":{"v":"2"}}`, "ConfigMap " + ns + "/b differs from its manifest at .data.v"},
		{"b", `{"data":{"v":"1"},"metadata":{"labels":{"landscaper.gardener.cloud/deploy-item":null}}}`, "ConfigMap " + ns + "/b is no longer labeled"},
	} {
		if _, err := client.Patch(context.Background(), tc.name, types.MergePatchType, []byte(tc.patch), metav1.PatchOptions{}); err != nil {
			t.Fatal(err)
		}
		if r := drift(); !r.Drifted || !strings.Contains(r.Reason, tc.want) {
			t.Errorf("after patch %s: Drift = %+v, want %q", tc.patch, r, tc.want)
		}
	}
	it.mustApply(cfg) // repairs b
	if err := client.Delete(context.Background(), "c", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	if r := drift(); !r.Drifted || !strings.Contains(r.Reason, "ConfigMap "+ns+"/c no longer exists") {
		t.Errorf("after deleting c: Drift = %+v", r)
	}
}
