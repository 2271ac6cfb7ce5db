package helm_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"helm.sh/helm/v3/pkg/chart"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer/helm"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/target"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/testsupport/localcluster"
)

// TestApply_FailedCRDInstallLeavesNoCRDs: Helm creates a chart's crds/
// one after the other before it records the release; when a later one
// fails (here a document that is no CRD, as traefik's unignored
// crds/kustomization.yaml was), the CRDs created before it are removed
// again, so neither a destroy nor anyone else has to find them; a CRD
// that existed before the install is left alone.
func TestApply_FailedCRDInstallLeavesNoCRDs(t *testing.T) {
	ns := localcluster.Namespace(t)
	crd := func(plural string) string {
		return `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: ` + plural + `.` + ns + `.example.com}
spec:
  group: ` + ns + `.example.com
  names: {kind: K` + plural + `, plural: ` + plural + `, singular: s` + plural + `}
  scope: Namespaced
  versions: [{name: v1, served: true, storage: true, schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}}]
`
	}
	ch := testChart(t, nil, nil)
	ch.Files = append(ch.Files,
		&chart.File{Name: "crds/a.yaml", Data: []byte(crd("widgets"))},
		&chart.File{Name: "crds/b.yaml", Data: []byte(crd("gadgets"))},
		&chart.File{Name: "crds/kustomization.yaml", Data: []byte("apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nmetadata: {name: k}\nresources: [a.yaml]\n")})
	dyn, err := dynamic.NewForConfig(localcluster.RESTConfig(t))
	if err != nil {
		t.Fatal(err)
	}
	crds := dyn.Resource(schema.GroupVersionResource{Group: "apiextensions.k8s.io", Version: "v1", Resource: "customresourcedefinitions"})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	// gadgets exists before the install: not the install's to remove.
	pre := helmItem(t, "crds-pre", helmConfig(t, ns, rawChart(t, testChartWithFiles(t, &chart.File{Name: "crds/b.yaml", Data: []byte(crd("gadgets"))})), map[string]any{"name": "pre"}))
	if _, err := helm.New(target.NewPool()).Apply(ctx, pre); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		for _, p := range []string{"widgets", "gadgets"} {
			_ = crds.Delete(context.Background(), p+"."+ns+".example.com", metav1.DeleteOptions{})
		}
	})
	item := helmItem(t, "crds-fail", helmConfig(t, ns, rawChart(t, ch), map[string]any{"name": "failing"}))
	if _, err := helm.New(target.NewPool()).Apply(ctx, item); err == nil || !strings.Contains(err.Error(), "kustomization.yaml") {
		t.Fatalf("Apply = %v; want the install to fail at crds/kustomization.yaml", err)
	}
	// The API server removes a deleted CRD once its custom resources are gone.
	for {
		u, err := crds.Get(ctx, "widgets."+ns+".example.com", metav1.GetOptions{})
		if apierrors.IsNotFound(err) {
			break
		}
		if err == nil && u.GetDeletionTimestamp() == nil {
			t.Fatal("the CRD the failed install created is still there")
		}
		if ctx.Err() != nil {
			t.Fatalf("the CRD the failed install created is not removed: %v", err)
		}
		time.Sleep(100 * time.Millisecond)
	}
	if _, err := crds.Get(ctx, "gadgets."+ns+".example.com", metav1.GetOptions{}); err != nil {
		t.Fatalf("the CRD that existed before the install: %v", err)
	}
}

// testChartWithFiles is testChart without templates' objects, with files.
func testChartWithFiles(t *testing.T, files ...*chart.File) *chart.Chart {
	ch := testChart(t, nil, nil)
	ch.Files = append(ch.Files, files...)
	return ch
}
