package provider

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
)

// A destroy that fails — a deployed object a finalizer holds past the
// item's timeout — keeps the resource in state with phase DeleteFailed
// and the object in the cluster; once the finalizer is gone, the next
// destroy finishes (issue 33 item 10).
func TestAccInstallation_destroyFailsThenFinishes(t *testing.T) {
	e := newAccEnv(t)
	const finalizer = "fields3.example.com/hold"
	release := func() {
		patch := []byte(`{"metadata":{"finalizers":null}}`)
		_, err := e.kube.CoreV1().ConfigMaps(e.namespace).Patch(context.Background(), "held", types.MergePatchType, patch, metav1.PatchOptions{})
		if err != nil && !apierrors.IsNotFound(err) {
			t.Fatal(err)
		}
	}
	t.Cleanup(release) // a failed test must not keep the namespace from going
	cm := fmt.Sprintf("{apiVersion: v1, kind: ConfigMap, metadata: {name: held, namespace: %s, finalizers: [%s]}, data: {k: v}}", e.namespace, finalizer)
	w := newCLIWorkspace(t, "provider \"landscaper\" {}\n"+inlineInstallation(e.targetHCL, "held", e.namespace, manifestItem("app", "timeout: 3s", cm)))
	w.mustRun("apply", "-auto-approve", "-input=false")

	out, err := w.run("destroy", "-auto-approve", "-input=false")
	if err == nil {
		t.Fatalf("the destroy succeeded although a finalizer holds the ConfigMap:\n%s", out)
	}
	if !wrapped("held").MatchString(out) {
		t.Errorf("the failed destroy does not name the ConfigMap:\n%s", out)
	}
	state := w.mustRun("state", "show", "landscaper_installation.held")
	if !regexp.MustCompile(`phase\s+=\s+"DeleteFailed"`).MatchString(state) {
		t.Errorf("after the failed destroy the state does not say phase DeleteFailed:\n%s", state)
	}
	held, err := e.kube.CoreV1().ConfigMaps(e.namespace).Get(context.Background(), "held", metav1.GetOptions{})
	if err != nil || held.DeletionTimestamp == nil {
		t.Fatalf("the ConfigMap after the failed destroy: %v, %v; want it there, being deleted", held, err)
	}

	release()
	if out := w.mustRun("destroy", "-auto-approve", "-input=false"); !strings.Contains(out, "Destroy complete") {
		t.Errorf("the second destroy:\n%s", out)
	}
	if out := w.mustRun("state", "list"); strings.TrimSpace(out) != "" && strings.Contains(out, "landscaper_installation.held") {
		t.Errorf("the installation is still in state after the second destroy:\n%s", out)
	}
	if err := e.configMapsGone("held")(nil); err != nil {
		t.Error(err)
	}
}
