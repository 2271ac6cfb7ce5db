package inventory

import (
	"context"
	"errors"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	dynamicfake "k8s.io/client-go/dynamic/fake"
	clienttesting "k8s.io/client-go/testing"
)

// A record signed in one cluster does not verify in another one where
// someone copied it, under the same namespace and name: the signature
// binds the cluster's identity. (Before, it bound namespace and name
// only, and landscaper_reconcile applied cluster A's items in B.)
func TestVerifyingOpen_RecordOfAnotherCluster(t *testing.T) {
	ctx := context.Background()
	in := func(cluster string) func(context.Context) (string, error) {
		return func(context.Context) (string, error) { return cluster, nil }
	}
	s := &slowSecrets{}
	a := newParentIn(s, "ns", "root", "instance-1")
	a.key, a.identify = testKey(1), in("uid-of-a")
	if err := a.open(ctx, true); err != nil {
		t.Fatal(err)
	}
	e, _ := newEntry(RecordedItem{ID: "root/a", Name: "a", Type: "t", Config: []byte(`{"data":"of a"}`)}, nil)
	a.mu.Lock()
	a.items["root/a"] = e
	c := a.contentLocked()
	a.mu.Unlock()
	if err := a.write(ctx, c); err != nil {
		t.Fatal(err)
	}
	open := func(cluster string) error {
		p := newParentIn(s, "ns", "root", "instance-1") // the same Secret, as if copied
		p.key, p.verify, p.identify = testKey(1), true, in(cluster)
		return p.open(ctx, false)
	}
	if err := open("uid-of-a"); err != nil {
		t.Fatalf("the record does not verify in its own cluster: %v", err)
	}
	if err := open("uid-of-b"); !errors.Is(err, ErrBadSignature) {
		t.Fatalf("the record of cluster A in cluster B: err = %v, want ErrBadSignature", err)
	}
}

// The identity is the kube-system namespace's UID; credentials that may
// not read it give none (the signature then binds namespace and name),
// other errors fail.
func TestClusterIdentity(t *testing.T) {
	ctx := context.Background()
	ns := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "v1", "kind": "Namespace",
		"metadata": map[string]any{"name": "kube-system", "uid": "1f0c-uid"}}}
	got, err := clusterIdentity(ctx, dynamicfake.NewSimpleDynamicClient(runtime.NewScheme(), ns))
	if err != nil || got != "1f0c-uid" {
		t.Errorf("identity = %q, %v; want the kube-system UID", got, err)
	}
	failing := func(err error) *dynamicfake.FakeDynamicClient {
		c := dynamicfake.NewSimpleDynamicClient(runtime.NewScheme())
		c.PrependReactor("get", "namespaces", func(clienttesting.Action) (bool, runtime.Object, error) { return true, nil, err })
		return c
	}
	forbidden := apierrors.NewForbidden(namespaces.GroupResource(), "kube-system", errors.New("RBAC"))
	if got, err := clusterIdentity(ctx, failing(forbidden)); err != nil || got != "" {
		t.Errorf("forbidden: identity = %q, %v; want none", got, err)
	}
	if _, err := clusterIdentity(ctx, failing(apierrors.NewServiceUnavailable("down"))); err == nil {
		t.Error("an unavailable API server gave an identity")
	}
}
