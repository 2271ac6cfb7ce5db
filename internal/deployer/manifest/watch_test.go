package manifest_test

import (
	"context"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer/manifest"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/target"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/testsupport/localcluster"
)

// requestLog records "METHOD path?query" of every request a pool's
// clients send; refuseWatch makes it answer list and watch requests with
// 403, as a cluster whose RBAC grants get alone does.
type requestLog struct {
	refuseWatch bool
	mu          sync.Mutex
	lines       []string
}

func (l *requestLog) wrap(rt http.RoundTripper) http.RoundTripper {
	return roundTrip(func(req *http.Request) (*http.Response, error) {
		line := req.Method + " " + req.URL.Path + "?" + req.URL.RawQuery
		if strings.Contains(req.Header.Get("Accept"), "as=PartialObjectMetadata") {
			line += " (metadata)"
		}
		l.mu.Lock()
		l.lines = append(l.lines, line)
		l.mu.Unlock()
		if l.refuseWatch && req.Method == http.MethodGet && (req.URL.Query().Has("watch") || req.URL.Query().Has("fieldSelector")) {
			body := `{"kind":"Status","apiVersion":"v1","status":"Failure","reason":"Forbidden","code":403,"message":"list and watch are not allowed"}`
			return &http.Response{StatusCode: http.StatusForbidden, Header: http.Header{"Content-Type": {"application/json"}},
				Body: io.NopCloser(strings.NewReader(body)), Request: req}, nil
		}
		return rt.RoundTrip(req)
	})
}

type roundTrip func(*http.Request) (*http.Response, error)

func (f roundTrip) RoundTrip(req *http.Request) (*http.Response, error) { return f(req) }

// count returns how many recorded requests contain every one of parts.
func (l *requestLog) count(parts ...string) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := 0
next:
	for _, line := range l.lines {
		for _, p := range parts {
			if !strings.Contains(line, p) {
				continue next
			}
		}
		n++
	}
	return n
}

func (l *requestLog) reset() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.lines = nil
}

func newLoggedItem(t *testing.T, id string, log *requestLog) *item {
	return &item{t: t, d: manifest.New(target.NewPool(target.WithWrapTransport(log.wrap))), id: id}
}

func deploymentManifest(ns, name string, replicas int) map[string]any {
	labels := map[string]any{"app": name}
	return map[string]any{
		"apiVersion": "apps/v1", "kind": "Deployment",
		"metadata": map[string]any{"name": name, "namespace": ns},
		"spec": map[string]any{"replicas": replicas, "minReadySeconds": 1, "selector": map[string]any{"matchLabels": labels},
			"template": map[string]any{"metadata": map[string]any{"labels": labels},
				"spec": map[string]any{"containers": []any{map[string]any{"name": "c", "image": "example.invalid/c:1"}}}}},
	}
}

// TestWaitReady_FollowsTheRolloutWithAWatch: a Deployment that is not
// ready at once is followed by one watch, not re-read on a schedule, and
// Apply returns once it is available.
func TestWaitReady_FollowsTheRolloutWithAWatch(t *testing.T) {
	ns := localcluster.Namespace(t)
	log := &requestLog{}
	it := newLoggedItem(t, "watched", log)
	it.mustApply(config(t, []map[string]any{entry("manage", deploymentManifest(ns, "web", 2))}, nil))
	u := getObject(t, deployments, ns, "web")
	if n, _, _ := unstructured.NestedInt64(u.Object, "status", "availableReplicas"); n != 2 {
		t.Fatalf("Apply returned with %d available replicas, want 2", n)
	}
	path := "/namespaces/" + ns + "/deployments"
	if n := log.count("GET", path+"?", "watch=true"); n < 1 {
		t.Errorf("no watch of the Deployment; requests:\n%s", strings.Join(log.lines, "\n"))
	}
	// One read by name (the first check, before anything is pending).
	if n := log.count("GET", path+"/web?"); n > 1 {
		t.Errorf("the Deployment was read %d times by name; the wait should follow a watch:\n%s", n, strings.Join(log.lines, "\n"))
	}
}

// TestWaitReady_PollsWhereTheWatchIsRefused: without list and watch
// rights the wait falls back to reading the object.
func TestWaitReady_PollsWhereTheWatchIsRefused(t *testing.T) {
	ns := localcluster.Namespace(t)
	log := &requestLog{refuseWatch: true}
	it := newLoggedItem(t, "polled", log)
	it.mustApply(config(t, []map[string]any{entry("manage", deploymentManifest(ns, "web", 1))}, nil))
	u := getObject(t, deployments, ns, "web")
	if n, _, _ := unstructured.NestedInt64(u.Object, "status", "availableReplicas"); n != 1 {
		t.Fatalf("Apply returned with %d available replicas, want 1", n)
	}
	if n := log.count("GET", "/namespaces/"+ns+"/deployments/web?"); n < 2 {
		t.Errorf("the refused watch was not replaced by reads (%d)", n)
	}
}

// TestDelete_NoWaitWithoutFinalizers: an object without finalizers is
// gone when its DELETE returns: one read (ownership) and one DELETE, no
// further read or watch.
func TestDelete_NoWaitWithoutFinalizers(t *testing.T) {
	ns := localcluster.Namespace(t)
	log := &requestLog{}
	it := newLoggedItem(t, "quick-delete", log)
	cfg := config(t, []map[string]any{entry("manage", cm(ns, "a", map[string]any{"v": "1"})), entry("manage", cm(ns, "b", map[string]any{"v": "1"}))}, nil)
	it.mustApply(cfg)
	log.reset()
	it.mustDelete(cfg)
	if dataOf(t, ns, "a") != nil || dataOf(t, ns, "b") != nil {
		t.Fatal("the ConfigMaps survived Delete")
	}
	cms := "/namespaces/" + ns + "/configmaps"
	if got, want := log.count("GET", cms), 2; got != want {
		t.Errorf("%d reads of ConfigMaps, want %d:\n%s", got, want, strings.Join(log.lines, "\n"))
	}
	if got := log.count("DELETE", cms); got != 2 {
		t.Errorf("%d DELETEs, want 2", got)
	}
}

// TestDelete_FollowsAFinalizer: an object with a finalizer is waited for
// with a watch, and Delete returns once the finalizer is removed.
func TestDelete_FollowsAFinalizer(t *testing.T) {
	ns := localcluster.Namespace(t)
	log := &requestLog{}
	it := newLoggedItem(t, "finalized", log)
	held := cm(ns, "held", map[string]any{"v": "1"})
	held["metadata"].(map[string]any)["finalizers"] = []any{"example.com/hold"}
	cfg := config(t, []map[string]any{entry("manage", held)}, nil)
	it.mustApply(cfg)
	client := dyn(t).Resource(configMaps).Namespace(ns)
	release := func() {
		_, _ = client.Patch(context.Background(), "held", types.MergePatchType, []byte(`{"metadata":{"finalizers":null}}`), metav1.PatchOptions{})
	}
	t.Cleanup(release)
	done := make(chan error, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		done <- it.d.Delete(ctx, it.di(cfg), deployer.DeleteOptions{})
	}()
	// Wait until the DELETE was accepted, then let the object go.
	for {
		u, err := client.Get(context.Background(), "held", metav1.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if u.GetDeletionTimestamp() != nil {
			break
		}
		select {
		case err := <-done:
			t.Fatalf("Delete returned while the finalizer held the object: %v", err)
		case <-time.After(20 * time.Millisecond):
		}
	}
	select {
	case err := <-done:
		t.Fatalf("Delete returned while the finalizer held the object: %v", err)
	case <-time.After(200 * time.Millisecond):
	}
	release()
	if err := <-done; err != nil {
		t.Fatalf("Delete: %v", err)
	}
	if log.count("GET", "/namespaces/"+ns+"/configmaps?", "watch=true") < 1 {
		t.Errorf("the wait used no watch:\n%s", strings.Join(log.lines, "\n"))
	}
}
