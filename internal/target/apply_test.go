package target

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
)

// seenRequest is what the fake API server was sent.
type seenRequest struct {
	method, path, query, contentType, accept, body string
}

// fakeAPIServer answers every request with status and body, and keeps
// what it was sent.
type fakeAPIServer struct {
	mu     sync.Mutex
	seen   []seenRequest
	status int
	body   string
}

func (f *fakeAPIServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	f.mu.Lock()
	f.seen = append(f.seen, seenRequest{r.Method, r.URL.Path, r.URL.RawQuery, r.Header.Get("Content-Type"), r.Header.Get("Accept"), string(body)})
	status, reply := f.status, f.body
	f.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = io.WriteString(w, reply)
}

func (f *fakeAPIServer) last(t *testing.T) seenRequest {
	t.Helper()
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.seen) == 0 {
		t.Fatal("no request reached the server")
	}
	return f.seen[len(f.seen)-1]
}

func fakeClients(t *testing.T, f *fakeAPIServer) *Clients {
	t.Helper()
	srv := httptest.NewTLSServer(f)
	t.Cleanup(srv.Close)
	c, err := NewPool().Clients(targetWith(t, strings.Replace(kubeconfig, "https://127.0.0.1:6443", srv.URL, 1)))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

const appliedConfigMap = `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"cm","namespace":"team-a","uid":"0b5a1c2d-0000-4000-8000-000000000001","resourceVersion":"7"},"data":{"a":"1"}}`

func applyObject() *unstructured.Unstructured {
	return &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "v1", "kind": "ConfigMap",
		"metadata": map[string]any{"name": "cm", "namespace": "team-a", "labels": map[string]any{"x": "<&>"}},
		"data":     map[string]any{"a": "1", "n": int64(3), "f": 1.5, "u": "ü\u2028"},
	}}
}

// TestApplyMetadata_SameRequestAsDynamicApply: ApplyMetadata sends what
// the dynamic client's Apply sends — method, path, parameters, content
// type, body byte for byte — and differs only in asking for the metadata
// alone; it returns the object's UID.
func TestApplyMetadata_SameRequestAsDynamicApply(t *testing.T) {
	cms := schema.GroupVersionResource{Version: "v1", Resource: "configmaps"}
	nodes := schema.GroupVersionResource{Group: "example.com", Version: "v1", Resource: "clusterthings"}
	for _, tc := range []struct {
		name      string
		gvr       schema.GroupVersionResource
		namespace string
		opts      metav1.ApplyOptions
	}{
		{"Namespaced", cms, "team-a", metav1.ApplyOptions{FieldManager: "landscaper/x", Force: false}},
		{"Forced", cms, "team-a", metav1.ApplyOptions{FieldManager: "landscaper/x", Force: true}},
		{"ClusterScoped", nodes, "", metav1.ApplyOptions{FieldManager: "m", Force: true, DryRun: []string{metav1.DryRunAll}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := &fakeAPIServer{status: http.StatusOK, body: appliedConfigMap}
			c := fakeClients(t, f)
			ctx := context.Background()
			var dyn dynamic.ResourceInterface = c.Dynamic.Resource(tc.gvr)
			if tc.namespace != "" {
				dyn = c.Dynamic.Resource(tc.gvr).Namespace(tc.namespace)
			}
			if _, err := dyn.Apply(ctx, "cm", applyObject(), tc.opts); err != nil {
				t.Fatal(err)
			}
			old := f.last(t)
			got, err := c.ApplyMetadata(ctx, tc.gvr, tc.namespace, "cm", applyObject(), tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			now := f.last(t)
			if got.UID != "0b5a1c2d-0000-4000-8000-000000000001" {
				t.Fatalf("UID = %q", got.UID)
			}
			if !strings.Contains(now.accept, "as=PartialObjectMetadata") {
				t.Fatalf("Accept = %q, want the metadata only", now.accept)
			}
			now.accept, old.accept = "", ""
			if now != old {
				t.Fatalf("request differs from the dynamic client's:\n got  %+v\n want %+v", now, old)
			}
		})
	}
}

// TestApplyMetadata_Errors: the API server's refusals keep their kind
// (callers classify them), and what the dynamic client refuses before
// sending is refused too, without a request.
func TestApplyMetadata_Errors(t *testing.T) {
	cms := schema.GroupVersionResource{Version: "v1", Resource: "configmaps"}
	opts := metav1.ApplyOptions{FieldManager: "m"}
	for _, tc := range []struct {
		status int
		reason metav1.StatusReason
		is     func(error) bool
	}{
		{http.StatusConflict, metav1.StatusReasonConflict, apierrors.IsConflict},
		{http.StatusUnprocessableEntity, metav1.StatusReasonInvalid, apierrors.IsInvalid},
		{http.StatusForbidden, metav1.StatusReasonForbidden, apierrors.IsForbidden},
		{http.StatusNotFound, metav1.StatusReasonNotFound, apierrors.IsNotFound},
	} {
		body := `{"kind":"Status","apiVersion":"v1","status":"Failure","message":"no","reason":"` + string(tc.reason) + `","code":` + strconv.Itoa(tc.status) + `}`
		f := &fakeAPIServer{status: tc.status, body: body}
		c := fakeClients(t, f)
		_, oldErr := c.Dynamic.Resource(cms).Namespace("team-a").Apply(context.Background(), "cm", applyObject(), opts)
		_, err := c.ApplyMetadata(context.Background(), cms, "team-a", "cm", applyObject(), opts)
		if !tc.is(oldErr) || !tc.is(err) {
			t.Fatalf("status %d: dynamic %v, ApplyMetadata %v; want both of reason %s", tc.status, oldErr, err, tc.reason)
		}
		if err.Error() != oldErr.Error() {
			t.Fatalf("status %d: error %q, dynamic client's %q", tc.status, err, oldErr)
		}
	}

	f := &fakeAPIServer{status: http.StatusOK, body: appliedConfigMap}
	c := fakeClients(t, f)
	withManagedFields := applyObject()
	withManagedFields.SetManagedFields([]metav1.ManagedFieldsEntry{{Manager: "x"}})
	for name, call := range map[string]func() error{
		"no name": func() error {
			_, err := c.ApplyMetadata(context.Background(), cms, "team-a", "", applyObject(), opts)
			return err
		},
		"bad namespace": func() error {
			_, err := c.ApplyMetadata(context.Background(), cms, "a/b", "cm", applyObject(), opts)
			return err
		},
		"bad name": func() error {
			_, err := c.ApplyMetadata(context.Background(), cms, "team-a", "..", applyObject(), opts)
			return err
		},
		"managed fields": func() error {
			_, err := c.ApplyMetadata(context.Background(), cms, "team-a", "cm", withManagedFields, opts)
			return err
		},
	} {
		if err := call(); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.seen) != 0 {
		t.Fatalf("refused calls sent %d requests", len(f.seen))
	}
}
