package manifest_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/testsupport/localcluster"
)

// TestLeftToOthers_OtherManagersKeepTheirFields: three other field
// managers take a field of a Deployment each — an HPA-style controller
// scales it (an update), a CI sets the image the way `kubectl set image`
// does (a forced server-side apply of its own), a webhook writes an
// annotation. By default each is drift naming that manager, and the apply
// takes the field back, as Landscaper's next reconcile would. With the
// fields in leftToOthers the drift check finds nothing, the preview leaves
// them out, and applies leave the managers' values.
func TestLeftToOthers_OtherManagersKeepTheirFields(t *testing.T) {
	ns := localcluster.Namespace(t)
	it := newItem(t, "left-to-others")
	labels := map[string]any{"app": "web"}
	dep := func() map[string]any {
		return map[string]any{
			"apiVersion": "apps/v1", "kind": "Deployment",
			"metadata": map[string]any{"name": "web", "namespace": ns, "annotations": map[string]any{"example.com/ca": "none"}},
			"spec": map[string]any{"replicas": 2, "selector": map[string]any{"matchLabels": labels},
				"template": map[string]any{"metadata": map[string]any{"labels": labels},
					"spec": map[string]any{"containers": []any{map[string]any{"name": "web", "image": "example.invalid/web:1"}}}}},
		}
	}
	byDefault := config(t, []map[string]any{entry("manage", dep())}, nil)
	left := entry("manage", dep())
	left["leftToOthers"] = []string{".spec.replicas", ".spec.template.spec.containers[0].image", ".metadata.annotations['example.com/ca']"}
	leaving := config(t, []map[string]any{left}, nil)

	client := dyn(t).Resource(deployments).Namespace(ns)
	ctx := context.Background()
	hpa := func() {
		t.Helper()
		if _, err := client.Patch(ctx, "web", types.MergePatchType, []byte(`{"spec":{"replicas":3}}`), metav1.PatchOptions{FieldManager: "hpa-controller"}); err != nil {
			t.Fatal(err)
		}
	}
	setImage := func() {
		t.Helper()
		body, _ := json.Marshal(map[string]any{"apiVersion": "apps/v1", "kind": "Deployment", "metadata": map[string]any{"name": "web", "namespace": ns},
			"spec": map[string]any{"template": map[string]any{"spec": map[string]any{"containers": []any{map[string]any{"name": "web", "image": "example.invalid/web:2"}}}}}})
		force := true
		if _, err := client.Patch(ctx, "web", types.ApplyPatchType, body, metav1.PatchOptions{FieldManager: "kubectl-set", Force: &force}); err != nil {
			t.Fatal(err)
		}
	}
	webhook := func() {
		t.Helper()
		if _, err := client.Patch(ctx, "web", types.MergePatchType, []byte(`{"metadata":{"annotations":{"example.com/ca":"CA"}}}`), metav1.PatchOptions{FieldManager: "ca-injector"}); err != nil {
			t.Fatal(err)
		}
	}
	drift := func(cfg json.RawMessage) deployer.DriftReport {
		t.Helper()
		ctx, cancel := context.WithTimeout(ctx, time.Minute)
		defer cancel()
		r, err := it.d.Drift(ctx, it.di(cfg))
		if err != nil {
			t.Fatalf("Drift: %v", err)
		}
		return r
	}
	type live struct {
		replicas  int64
		image, ca string
	}
	read := func() live {
		t.Helper()
		u := getObject(t, deployments, ns, "web")
		var l live
		l.replicas, _, _ = unstructured.NestedInt64(u.Object, "spec", "replicas")
		containers, _, _ := unstructured.NestedSlice(u.Object, "spec", "template", "spec", "containers")
		if len(containers) == 1 {
			l.image, _, _ = unstructured.NestedString(containers[0].(map[string]any), "image")
		}
		l.ca = u.GetAnnotations()["example.com/ca"]
		return l
	}
	declared := live{2, "example.invalid/web:1", "none"}

	it.mustApply(byDefault)
	for _, c := range []struct {
		change  func()
		manager string
		path    string
	}{
		{hpa, "hpa-controller", ".spec.replicas"},
		{setImage, "kubectl-set", ".image"},
		{webhook, "ca-injector", ".metadata.annotations.example.com/ca"},
	} {
		c.change()
		r := drift(byDefault)
		if !r.Drifted || !strings.Contains(r.Reason, `held by field manager "`+c.manager+`"`) || !strings.Contains(r.Reason, c.path) {
			t.Errorf("after %s's change: drift %+v, want it at %s naming the manager", c.manager, r, c.path)
		}
		it.mustApply(byDefault)
		if got := read(); got != declared {
			t.Errorf("after %s's change the default apply left %+v, want the manifest's %+v back", c.manager, got, declared)
		}
	}

	hpa()
	setImage()
	webhook()
	theirs := live{3, "example.invalid/web:2", "CA"}
	if r := drift(leaving); r.Drifted {
		t.Errorf("with the fields left to others, drift: %s", r.Reason)
	}
	preview, err := it.d.Preview(ctx, deployer.PreviewRequest{Item: it.di(leaving)})
	if err != nil {
		t.Fatal(err)
	}
	if text, _ := json.Marshal(preview.Objects); strings.Contains(string(text), "replicas") || strings.Contains(string(text), "image") ||
		strings.Contains(string(text), "example.com/ca") {
		t.Errorf("the preview shows fields left to others: %s", text)
	}
	for i := 0; i < 2; i++ {
		it.mustApply(leaving)
		if got := read(); got != theirs {
			t.Fatalf("apply %d with the fields left to others: %+v, want the other managers' %+v", i+1, got, theirs)
		}
		if r := drift(leaving); r.Drifted {
			t.Errorf("after apply %d: drift %s", i+1, r.Reason)
		}
	}
}
