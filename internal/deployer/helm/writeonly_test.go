package helm_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer/helm"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/fingerprint"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/target"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/testsupport/localcluster"
)

// TestApply_WriteOnlyValuesAreUpgraded: values holding a write-only value
// have the same deployment hash whatever the value (the provider status
// is stored), so an apply with another value must upgrade the release
// instead of taking the equal hash for the same deployment; values
// without one still write nothing when unchanged.
func TestApply_WriteOnlyValuesAreUpgraded(t *testing.T) {
	ns := localcluster.Namespace(t)
	d := helm.New(target.NewPool())
	cluster := newClusterReader(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	src := rawChart(t, valuesChart(t, ns)) // one archive: its digest is in the hash
	item := helmItem(t, "wo", nil)
	revision := func(status json.RawMessage) int {
		var s struct {
			Release struct{ Revision int } `json:"release"`
		}
		if err := json.Unmarshal(status, &s); err != nil {
			t.Fatal(err)
		}
		return s.Release.Revision
	}
	var hashes []string
	for i, v := range []string{"wo-value-one", "wo-value-two"} {
		item.Config = helmConfig(t, ns, src, map[string]any{"name": "wo", "values": map[string]any{"v": v}})
		item.WriteOnly = fingerprint.Forms{v}
		res, err := d.Apply(ctx, item)
		if err != nil {
			t.Fatalf("apply %d: %v", i+1, err)
		}
		item.ProviderStatus = res.ProviderStatus
		if got := revision(res.ProviderStatus); got != i+1 {
			t.Errorf("apply of %s: revision %d, want %d", v, got, i+1)
		}
		if got := cluster.configMapData(t, ns, "wo")["v"]; got != v {
			t.Errorf("apply of %s: the ConfigMap holds %q", v, got)
		}
		if strings.Contains(string(res.ProviderStatus), v) {
			t.Errorf("the provider status holds the write-only value: %s", res.ProviderStatus)
		}
		var s struct{ Hash string }
		_ = json.Unmarshal(res.ProviderStatus, &s)
		hashes = append(hashes, s.Hash)
	}
	if hashes[0] == "" || hashes[0] != hashes[1] {
		t.Errorf("deployment hashes %q depend on the write-only value", hashes)
	}
	// Without write-only values the same values are the same deployment.
	item.WriteOnly = nil
	res, err := d.Apply(ctx, item)
	if err != nil {
		t.Fatal(err)
	}
	item.ProviderStatus = res.ProviderStatus
	res, err = d.Apply(ctx, item)
	if err != nil || revision(res.ProviderStatus) != 3 {
		t.Fatalf("unchanged values without write-only forms: revision %d (%v), want 3 (no upgrade)", revision(res.ProviderStatus), err)
	}
}
