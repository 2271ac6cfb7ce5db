package manifest

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/discovery/cached/memory"
	discoveryfake "k8s.io/client-go/discovery/fake"
	dynamicfake "k8s.io/client-go/dynamic/fake"
	"k8s.io/client-go/restmapper"
	clienttesting "k8s.io/client-go/testing"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/target"
)

// These tests drive await against client-go's fake dynamic client, so the
// watch bookkeeping is checked without a cluster; the tests against the
// local cluster (watch_test.go) check it against a real API server.

var cmResource = schema.GroupVersionResource{Version: "v1", Resource: "configmaps"}

func fakeSession(t *testing.T, objs ...runtime.Object) (*Session, *dynamicfake.FakeDynamicClient) {
	t.Helper()
	dyn := dynamicfake.NewSimpleDynamicClientWithCustomListKinds(runtime.NewScheme(), map[schema.GroupVersionResource]string{cmResource: "ConfigMapList"}, objs...)
	disc := &discoveryfake.FakeDiscovery{Fake: &clienttesting.Fake{Resources: []*metav1.APIResourceList{{
		GroupVersion: "v1",
		APIResources: []metav1.APIResource{{Name: "configmaps", Namespaced: true, Kind: "ConfigMap", Verbs: metav1.Verbs{"get", "list", "watch"}}},
	}}}}
	cached := memory.NewMemCacheClient(disc)
	c := &target.Clients{Dynamic: dyn, Discovery: cached, Mapper: restmapper.NewDeferredDiscoveryRESTMapper(cached), Namespace: "ns"}
	return NewSession(c, "item"), dyn
}

func configMap(name string) *unstructured.Unstructured {
	u := &unstructured.Unstructured{}
	u.SetAPIVersion("v1")
	u.SetKind("ConfigMap")
	u.SetNamespace("ns")
	u.SetName(name)
	return u
}

// awaitGone runs the wait for refs in the background.
func awaitGone(s *Session, refs ...ObjectRef) <-chan error {
	done := make(chan error, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		pending := append([]ObjectRef(nil), refs...)
		done <- s.await(ctx, "waiting", selection{refs: pending}, goneCheck(&pending, func(ObjectRef) {}))
	}()
	return done
}

func ref(name string) ObjectRef {
	return ObjectRef{APIVersion: "v1", Kind: "ConfigMap", Namespace: "ns", Name: name}
}

func expectPending(t *testing.T, done <-chan error) {
	t.Helper()
	select {
	case err := <-done:
		t.Fatalf("the wait returned (%v) while an object still existed", err)
	case <-time.After(300 * time.Millisecond):
	}
}

// TestAwait_WatchEvents: the wait ends on the delete event of the last
// object it waits for, several objects of one kind sharing one stream.
func TestAwait_WatchEvents(t *testing.T) {
	s, dyn := fakeSession(t, configMap("a"), configMap("b"), configMap("other"))
	var watches, gets atomic.Int32
	dyn.PrependReactor("get", "configmaps", func(clienttesting.Action) (bool, runtime.Object, error) { gets.Add(1); return false, nil, nil })
	dyn.PrependWatchReactor("configmaps", func(clienttesting.Action) (bool, watch.Interface, error) { watches.Add(1); return false, nil, nil })
	done := awaitGone(s, ref("a"), ref("b"))
	expectPending(t, done)
	client := dyn.Resource(cmResource).Namespace("ns")
	if err := client.Delete(context.Background(), "a", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	expectPending(t, done)
	if err := client.Delete(context.Background(), "b", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the wait did not end after the delete events")
	}
	if watches.Load() != 1 || gets.Load() != 0 {
		t.Errorf("%d watches and %d reads by name; want one watch for both objects and no reads", watches.Load(), gets.Load())
	}
}

// TestAwait_RefusedWatchPolls: a forbidden watch falls back to reads.
func TestAwait_RefusedWatchPolls(t *testing.T) {
	s, dyn := fakeSession(t, configMap("a"))
	dyn.PrependWatchReactor("configmaps", func(clienttesting.Action) (bool, watch.Interface, error) {
		return true, nil, apierrors.NewForbidden(cmResource.GroupResource(), "", nil)
	})
	done := awaitGone(s, ref("a"))
	expectPending(t, done)
	if err := dyn.Resource(cmResource).Namespace("ns").Delete(context.Background(), "a", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the polling fallback did not see the object go")
	}
}

// TestAwait_TimeoutSaysWhatIsMissing: the error of a wait that ends with
// its context names what the last check found.
func TestAwait_TimeoutSaysWhatIsMissing(t *testing.T) {
	s, _ := fakeSession(t, configMap("a"))
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	pending := []ObjectRef{ref("a")}
	err := s.await(ctx, "waiting", selection{refs: pending}, goneCheck(&pending, func(ObjectRef) {}))
	if err == nil || !strings.Contains(err.Error(), "ConfigMap ns/a still exists") {
		t.Fatalf("await = %v, want a timeout naming the ConfigMap", err)
	}
}
