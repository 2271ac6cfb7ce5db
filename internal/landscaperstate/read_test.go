package landscaperstate_test

import (
	"context"
	"encoding/json"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	dynamicfake "k8s.io/client-go/dynamic/fake"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/landscaperstate"
	fixture "github.com/landscaper-terraform/terraform-provider-landscaper/internal/testsupport/landscaperfixture"
)

const (
	hostNS   = "landscape"
	targetNS = "shop-prod"
	kubecfg  = "apiVersion: v1\nkind: Config\nclusters: []\n"
)

func fixtureLandscape() *fixture.Landscape {
	return fixture.Build(fixture.Options{Namespace: hostNS, TargetNamespace: targetNS, Kubeconfig: kubecfg})
}

// fakeHost serves objects like a host cluster's API server would.
func fakeHost(objs []*unstructured.Unstructured) *dynamicfake.FakeDynamicClient {
	lists := map[schema.GroupVersionResource]string{}
	for _, r := range []string{"installations", "executions", "deployitems", "dataobjects", "targets", "contexts"} {
		lists[schema.GroupVersionResource{Group: landscaperstate.Group, Version: landscaperstate.Version, Resource: r}] = "List"
	}
	lists[schema.GroupVersionResource{Version: "v1", Resource: "secrets"}] = "SecretList"
	rt := make([]runtime.Object, 0, len(objs))
	for _, o := range objs {
		rt = append(rt, o.DeepCopy())
	}
	return dynamicfake.NewSimpleDynamicClientWithCustomListKinds(runtime.NewScheme(), lists, rt...)
}

func read(t *testing.T, objs []*unstructured.Unstructured) *landscaperstate.Landscape {
	t.Helper()
	land, err := landscaperstate.Read(context.Background(), fakeHost(objs), hostNS, fixture.RootName)
	if err != nil {
		t.Fatalf("Read: %v", err)
	}
	return land
}

func assertJSON(t *testing.T, what string, got json.RawMessage, want string) {
	t.Helper()
	var g, w any
	if err := json.Unmarshal(got, &g); err != nil {
		t.Errorf("%s: %v (%s)", what, err, got)
		return
	}
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		t.Fatal(err)
	}
	gj, _ := json.Marshal(g)
	wj, _ := json.Marshal(w)
	if string(gj) != string(wj) {
		t.Errorf("%s = %s, want %s", what, gj, wj)
	}
}
