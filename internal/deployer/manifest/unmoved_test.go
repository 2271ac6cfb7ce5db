package manifest_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer/manifest"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/target"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/testsupport/localcluster"
)

// TestDrift_UnmovedObjectsAreReadAsVersions: after an Apply every object
// records the resourceVersion it was left at; a drift check then reads
// only the versions (one metadata list) and no object whole. An object
// changed behind the item's back has moved: it alone is read whole, and
// its drift is reported as before. The repairing Apply records the new
// version, and so does an Apply that finds the object as it should be.
func TestDrift_UnmovedObjectsAreReadAsVersions(t *testing.T) {
	ns := localcluster.Namespace(t)
	log := &requestLog{}
	it := newLoggedItem(t, "drift-unmoved", log)
	cfg := config(t, []map[string]any{
		entry("manage", cm(ns, "a", map[string]any{"v": "1"})),
		entry("manage", cm(ns, "b", map[string]any{"v": "1"})),
		entry("manage", cm(ns, "c", map[string]any{"v": "1"})),
	}, nil)
	it.mustApply(cfg)
	written := recordedVersions(t, it.status)
	for _, name := range []string{"a", "b", "c"} {
		if live := getObject(t, configMaps, ns, name); written[name] == "" || written[name] != live.GetResourceVersion() {
			t.Fatalf("%s: recorded version %q, live %q", name, written[name], live.GetResourceVersion())
		}
	}
	cms := "/namespaces/" + ns + "/configmaps"
	drift := func() string {
		t.Helper()
		log.reset()
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		r, err := it.d.Drift(ctx, it.di(cfg))
		if err != nil {
			t.Fatalf("Drift: %v", err)
		}
		return r.Reason
	}
	whole := func() []string {
		var out []string
		for _, l := range log.lines {
			if strings.Contains(l, cms) && !strings.Contains(l, "(metadata)") {
				out = append(out, l)
			}
		}
		return out
	}

	if r := drift(); r != "" {
		t.Fatalf("Drift right after Apply: %s", r)
	}
	if got := log.count("GET", cms+"?", "labelSelector=", "(metadata)"); got != 1 || len(whole()) != 0 {
		t.Errorf("%d metadata lists and whole reads %v, want 1 and none:\n%s", got, whole(), strings.Join(log.lines, "\n"))
	}

	client := dyn(t).Resource(configMaps).Namespace(ns)
	if _, err := client.Patch(context.Background(), "b", types.MergePatchType, []byte(`{"data":{"v":"2"}}`), metav1.PatchOptions{}); err != nil {
		t.Fatal(err)
	}
	if r := drift(); !strings.Contains(r, "ConfigMap "+ns+"/b differs from its manifest at .data.v") {
		t.Errorf("after changing b: Drift = %q", r)
	}
	if w := whole(); len(w) != 1 || !strings.Contains(w[0], cms+"/b?") {
		t.Errorf("whole reads %v, want b's alone:\n%s", w, strings.Join(log.lines, "\n"))
	}

	it.mustApply(cfg) // repairs b, finds a and c as they should be
	repaired := recordedVersions(t, it.status)
	if live := getObject(t, configMaps, ns, "b"); repaired["b"] != live.GetResourceVersion() || repaired["b"] == written["b"] {
		t.Errorf("b: recorded %q after the repair (before %q), live %q", repaired["b"], written["b"], live.GetResourceVersion())
	}
	if repaired["a"] != written["a"] || repaired["c"] != written["c"] {
		t.Errorf("unchanged objects recorded %v, want %v", repaired, written)
	}
	if r := drift(); r != "" || len(whole()) != 0 {
		t.Errorf("after the repair: Drift = %q, whole reads %v", r, whole())
	}

	// Deleted and created again by someone else under the same name: a
	// new version, so read whole and found not to be the item's.
	if err := client.Delete(context.Background(), "c", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	if r := drift(); !strings.Contains(r, "ConfigMap "+ns+"/c no longer exists") {
		t.Errorf("after deleting c: Drift = %q", r)
	}
	other := cm(ns, "c", map[string]any{"v": "1"})
	if _, err := client.Create(context.Background(), unstructuredOf(other), metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	if r := drift(); !strings.Contains(r, "ConfigMap "+ns+"/c is no longer labeled") {
		t.Errorf("after someone else created c: Drift = %q", r)
	}
}

// recordedVersions reads the resourceVersion each managed resource of a
// status recorded, by name.
func recordedVersions(t *testing.T, status json.RawMessage) map[string]string {
	t.Helper()
	var s manifest.ProviderStatus
	if err := json.Unmarshal(status, &s); err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, r := range s.ManagedResources {
		out[r.Resource.Name] = r.ResourceVersion
	}
	return out
}

// TestSharedReads_DeleteReadsMetadata: a destroy of an installation's
// items decides on each object from one shared list of the members'
// metadata; no object is read whole.
func TestSharedReads_DeleteReadsMetadata(t *testing.T) {
	ns := localcluster.Namespace(t)
	m := newMemberItems(t, ns, 5)
	log := &requestLog{}
	m.d = manifest.New(target.NewPool(target.WithWrapTransport(log.wrap)))
	m.each(func(ctx context.Context, it deployer.Item) error {
		return m.d.Delete(ctx, it, deployer.DeleteOptions{})
	})
	cms := "/namespaces/" + ns + "/configmaps"
	var lists, whole int
	for _, l := range log.lines {
		switch {
		case !strings.HasPrefix(l, "GET ") || !strings.Contains(l, cms):
		case strings.Contains(l, "(metadata)") && strings.Contains(l, "labelSelector="):
			lists++
		default:
			whole++
		}
	}
	if lists != 1 || whole != 0 {
		t.Errorf("%d metadata lists and %d other reads, want 1 and 0:\n%s", lists, whole, strings.Join(log.lines, "\n"))
	}
	for i := range 5 {
		if dataOf(t, ns, fmt.Sprintf("member-%d", i)) != nil {
			t.Errorf("member-%d survived Delete", i)
		}
	}
}

// TestDrift_RebuiltStatusIsReadWhole: the versions of a status read back
// from the inventory are not trusted (anyone who may write Secrets there
// could have set them to hide a change): every object is read whole.
func TestDrift_RebuiltStatusIsReadWhole(t *testing.T) {
	ns := localcluster.Namespace(t)
	log := &requestLog{}
	it := newLoggedItem(t, "drift-rebuilt", log)
	cfg := config(t, []map[string]any{
		entry("manage", cm(ns, "a", map[string]any{"v": "1"})),
		entry("manage", cm(ns, "b", map[string]any{"v": "1"})),
	}, nil)
	it.mustApply(cfg)
	client := dyn(t).Resource(configMaps).Namespace(ns)
	b, err := client.Patch(context.Background(), "b", types.MergePatchType, []byte(`{"data":{"v":"2"}}`), metav1.PatchOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// The forged record claims b's new version.
	var status manifest.ProviderStatus
	if err := json.Unmarshal(it.status, &status); err != nil {
		t.Fatal(err)
	}
	for i := range status.ManagedResources {
		if status.ManagedResources[i].Resource.Name == "b" {
			status.ManagedResources[i].ResourceVersion = b.GetResourceVersion()
		}
	}
	forged, err := json.Marshal(status)
	if err != nil {
		t.Fatal(err)
	}
	item := it.di(cfg)
	item.ProviderStatus, item.Rebuilt = forged, true
	log.reset()
	r, err := it.d.Drift(context.Background(), item)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(r.Reason, "ConfigMap "+ns+"/b differs from its manifest at .data.v") {
		t.Errorf("Drift of a rebuilt status = %q", r.Reason)
	}
	if got := log.count("(metadata)"); got != 0 {
		t.Errorf("%d metadata reads for a rebuilt status, want none:\n%s", got, strings.Join(log.lines, "\n"))
	}
	// The same record as the provider's own hides the change: what the
	// versions are trusted for.
	item.Rebuilt = false
	if r, err := it.d.Drift(context.Background(), item); err != nil || r.Drifted {
		t.Errorf("Drift of the provider's own record = %+v, %v; want none (b is at its recorded version)", r, err)
	}
}
