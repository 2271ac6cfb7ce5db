package manifest_test

import (
	"context"
	"crypto/sha256"
	"fmt"
	"sync"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer/deployertest"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer/manifest"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/target"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/testsupport/localcluster"
)

// memberItems are deploy items of one installation (one ApplySet), each
// one ConfigMap, deployed through one pool whose requests are counted.
type memberItems struct {
	t       *testing.T
	d       *manifest.Deployer
	counter *deployertest.RequestCounter
	items   []deployer.Item
}

const testInstance = "01900000-0000-7000-8000-000000000001"

func newMemberItems(t *testing.T, ns string, n int) *memberItems {
	t.Helper()
	counter := &deployertest.RequestCounter{}
	m := &memberItems{t: t, d: manifest.New(target.NewPool(target.WithWrapTransport(counter.Wrap))), counter: counter}
	tg := deployertest.KubernetesTarget(t, localcluster.Kubeconfig(t))
	for i := range n {
		name := fmt.Sprintf("member-%d", i)
		cfg := config(t, []map[string]any{entry("manage", cm(ns, name, map[string]any{"v": "1"}))}, nil)
		m.items = append(m.items, deployer.Item{ID: "members/" + name, Name: name, Type: manifest.Type, Target: tg, Config: cfg,
			Timeouts: deployer.Timeouts{Progressing: time.Minute}, Instance: testInstance, PartOf: fmt.Sprintf("applyset-%x", sha256.Sum256([]byte(ns)))[:40]})
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	for i := range m.items {
		res, err := m.d.Apply(ctx, m.items[i])
		if err != nil {
			t.Fatalf("Apply %s: %v", m.items[i].Name, err)
		}
		m.items[i].ProviderStatus = res.ProviderStatus
	}
	return m
}

// each runs fn for every item at once, with one SharedReads, and fails
// the test on the first error.
func (m *memberItems) each(fn func(ctx context.Context, it deployer.Item) error) {
	m.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	shared := deployer.NewSharedReads()
	errs := make([]error, len(m.items))
	var wg sync.WaitGroup
	for i, it := range m.items {
		wg.Add(1)
		go func() {
			defer wg.Done()
			it.SharedReads = shared
			errs[i] = fn(ctx, it)
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			m.t.Fatalf("%s: %v", m.items[i].Name, err)
		}
	}
}

// TestSharedReads_DriftListsOnce: the drift check of 20 items of one
// installation reads their ConfigMaps' versions with one metadata list,
// not 20 reads, and the objects whole with one more list only because one
// moved, which it still finds changed.
func TestSharedReads_DriftListsOnce(t *testing.T) {
	ns := localcluster.Namespace(t)
	m := newMemberItems(t, ns, 20)
	editValue(t, ns, "member-7")
	m.counter.Reset()
	var mu sync.Mutex
	var drifted []string
	m.each(func(ctx context.Context, it deployer.Item) error {
		report, err := m.d.Drift(ctx, it)
		if report.Drifted {
			mu.Lock()
			drifted = append(drifted, it.Name)
			mu.Unlock()
		}
		return err
	})
	if len(drifted) != 1 || drifted[0] != "member-7" {
		t.Errorf("drifted items %v, want [member-7]", drifted)
	}
	if reads, writes := m.counter.Reads(), m.counter.Writes(); reads != 2 || writes != 0 {
		t.Errorf("drift check of 20 items sent %d reads and %d writes, want two lists and nothing written", reads, writes)
	}
}

// TestSharedReads_DeleteListsOnce: deleting 20 items of one installation
// reads their ConfigMaps with one list and sends one DELETE each; all are
// gone afterwards.
func TestSharedReads_DeleteListsOnce(t *testing.T) {
	ns := localcluster.Namespace(t)
	m := newMemberItems(t, ns, 20)
	m.counter.Reset()
	m.each(func(ctx context.Context, it deployer.Item) error {
		return m.d.Delete(ctx, it, deployer.DeleteOptions{})
	})
	if reads, writes := m.counter.Reads(), m.counter.Writes(); reads != 1 || writes != 20 {
		t.Errorf("deleting 20 items sent %d reads and %d writes, want one list and 20 DELETEs", reads, writes)
	}
	for i := range 20 {
		if data := dataOf(t, ns, fmt.Sprintf("member-%d", i)); data != nil {
			t.Errorf("member-%d survived Delete", i)
		}
	}
}

// TestSharedReads_StaleReadIsCheckedAgain: an object that changed after
// the shared list was taken is read again before it is deleted, so the
// decision follows what it is now: one adopted by a newer instance since
// stays, one only edited is deleted.
func TestSharedReads_StaleReadIsCheckedAgain(t *testing.T) {
	ns := localcluster.Namespace(t)
	m := newMemberItems(t, ns, 3)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	shared := deployer.NewSharedReads()
	for i := range m.items {
		m.items[i].SharedReads = shared
	}
	if err := m.d.Delete(ctx, m.items[0], deployer.DeleteOptions{}); err != nil { // takes the list
		t.Fatal(err)
	}
	newer := "01900000-0000-7000-8000-000000000002"
	patch := fmt.Sprintf(`{"metadata":{"labels":{%q:%q}}}`, deployer.InstanceLabel, newer)
	if _, err := dyn(t).Resource(configMaps).Namespace(ns).Patch(ctx, "member-1", types.MergePatchType, []byte(patch), metav1.PatchOptions{}); err != nil {
		t.Fatal(err)
	}
	editValue(t, ns, "member-2")
	for _, it := range m.items[1:] {
		if err := m.d.Delete(ctx, it, deployer.DeleteOptions{}); err != nil {
			t.Fatalf("Delete %s: %v", it.Name, err)
		}
	}
	if dataOf(t, ns, "member-1") == nil {
		t.Error("an object a newer instance adopted after the list was deleted")
	}
	if dataOf(t, ns, "member-2") != nil {
		t.Error("an object edited after the list survived Delete")
	}
}

// TestSharedReads_UnlabeledObjectsAreReadByName: objects deployed before
// the ApplySet label existed (not in the list) are read by name.
func TestSharedReads_UnlabeledObjectsAreReadByName(t *testing.T) {
	ns := localcluster.Namespace(t)
	m := newMemberItems(t, ns, 2)
	patch := fmt.Sprintf(`{"metadata":{"labels":{%q:null}}}`, deployer.PartOfLabel)
	if _, err := dyn(t).Resource(configMaps).Namespace(ns).Patch(context.Background(), "member-0", types.MergePatchType, []byte(patch), metav1.PatchOptions{}); err != nil {
		t.Fatal(err)
	}
	m.counter.Reset()
	m.each(func(ctx context.Context, it deployer.Item) error {
		return m.d.Delete(ctx, it, deployer.DeleteOptions{})
	})
	if reads := m.counter.Reads(); reads != 2 {
		t.Errorf("%d reads, want the list and one read by name", reads)
	}
	if dataOf(t, ns, "member-0") != nil || dataOf(t, ns, "member-1") != nil {
		t.Error("a ConfigMap survived Delete")
	}
}

// editValue changes data.v of a ConfigMap behind the deployer's back.
func editValue(t *testing.T, ns, name string) {
	t.Helper()
	if _, err := dyn(t).Resource(configMaps).Namespace(ns).Patch(context.Background(), name, types.MergePatchType, []byte(`{"data":{"v":"edited"}}`), metav1.PatchOptions{}); err != nil {
		t.Fatal(err)
	}
}
