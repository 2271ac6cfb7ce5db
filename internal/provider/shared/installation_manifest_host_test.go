package shared

import (
	"context"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/hostaccess"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/landscaperyaml"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/target"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/testsupport/landscaperfixture"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/testsupport/localcluster"
)

const hostObjectsInstallation = `apiVersion: landscaper.gardener.cloud/v1alpha1
kind: Installation
metadata: {name: inst}
spec:
  blueprint:
    inline:
      filesystem:
        blueprint.yaml: |
          apiVersion: landscaper.gardener.cloud/v1alpha1
          kind: Blueprint
          imports:
          - {name: settings, schema: {type: object}}
          - {name: cluster, targetType: landscaper.gardener.cloud/kubernetes-cluster}
  imports:
    data:
    - {name: settings, dataRef: settings}
    targets:
    - {name: cluster, target: by-secret}
`

// TestHostObjects: a manifest's DataObject and Target that
// manifest_objects lacks are read from the host cluster; a Target's
// secretRef is resolved from its Secret. Errors name the Target and
// Secret, never the Secret's content; a missing object is left to the
// translation to name.
func TestHostObjects(t *testing.T) {
	ns := localcluster.Namespace(t)
	ctx := context.Background()
	dyn, err := dynamic.NewForConfig(localcluster.RESTConfig(t))
	if err != nil {
		t.Fatal(err)
	}
	kube, err := kubernetes.NewForConfig(localcluster.RESTConfig(t))
	if err != nil {
		t.Fatal(err)
	}
	if err := landscaperfixture.EnsureCRDs(ctx, dyn); err != nil {
		t.Fatal(err)
	}
	create := func(kind string, obj map[string]any) {
		t.Helper()
		obj["apiVersion"], obj["kind"] = landscaperyaml.APIVersion, kind
		if _, err := dyn.Resource(landscaperfixture.GVR(kind)).Namespace(ns).Create(ctx, &unstructured.Unstructured{Object: obj}, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	create("DataObject", map[string]any{"metadata": map[string]any{"name": "settings"}, "data": map[string]any{"color": "blue"}})
	create("Target", map[string]any{"metadata": map[string]any{"name": "by-secret"},
		"spec": map[string]any{"type": "landscaper.gardener.cloud/kubernetes-cluster", "secretRef": map[string]any{"name": "kc", "key": "config"}}})
	secret := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Name: "kc", Namespace: ns},
		Data: map[string][]byte{"config": []byte("kubeconfig: |\n  top-secret-kubeconfig\n")}}
	if _, err := kube.CoreV1().Secrets(ns).Create(ctx, secret, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}

	host := &hostaccess.HostCluster{Settings: target.HostSettings{Configured: true, ConfigPaths: []string{localcluster.KubeconfigPath(t)}}}
	inst, err := landscaperyaml.Parse("manifest", hostObjectsInstallation)
	if err != nil {
		t.Fatal(err)
	}
	objects, err := withHostObjects(ctx, host, inst, &landscaperyaml.Set{}, ns)
	if err != nil {
		t.Fatalf("withHostObjects: %v", err)
	}
	root, err := landscaperyaml.Convert(inst, objects, "inst", ns)
	if err != nil {
		t.Fatalf("Convert with the host's objects: %v", err)
	}
	if got := root.Imports.Data["settings"]; got.(map[string]any)["color"] != "blue" {
		t.Errorf("settings = %v, want the DataObject's data", got)
	}
	if cfg := string(root.Imports.Targets["cluster"].Spec.Config); !strings.Contains(cfg, "top-secret-kubeconfig") {
		t.Errorf("the Target's config %q is not the Secret's", cfg)
	}

	secret.Data = map[string][]byte{"config": []byte("- top-secret-list")}
	if _, err := kube.CoreV1().Secrets(ns).Update(ctx, secret, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	// Content without a kubeconfig field is the kubeconfig itself, as
	// Landscaper's KubernetesClusterTargetConfig decodes it (a client
	// cannot be built from this one, which the deployer call then says).
	objects, err = withHostObjects(ctx, host, inst, &landscaperyaml.Set{}, ns)
	if err != nil {
		t.Fatalf("withHostObjects, a key without a kubeconfig field: %v", err)
	}
	if root, err = landscaperyaml.Convert(inst, objects, "inst", ns); err != nil {
		t.Fatalf("Convert, a key without a kubeconfig field: %v", err)
	}
	if cfg := string(root.Imports.Targets["cluster"].Spec.Config); cfg != `{"kubeconfig":"- top-secret-list"}` {
		t.Errorf("a key without a kubeconfig field: config %s, want the content as the kubeconfig", cfg)
	}

	// Without a key the whole Secret is the config, as Landscaper reads it.
	secret.Data = map[string][]byte{"kubeconfig": []byte("top-secret-whole"), "extra": []byte(`{"n":1}`)}
	if _, err := kube.CoreV1().Secrets(ns).Update(ctx, secret, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	patch := []byte(`{"spec":{"secretRef":{"key":null}}}`)
	if _, err := dyn.Resource(landscaperfixture.GVR("Target")).Namespace(ns).Patch(ctx, "by-secret", types.MergePatchType, patch, metav1.PatchOptions{}); err != nil {
		t.Fatal(err)
	}
	objects, err = withHostObjects(ctx, host, inst, &landscaperyaml.Set{}, ns)
	if err != nil {
		t.Fatalf("withHostObjects, secretRef without key: %v", err)
	}
	root, err = landscaperyaml.Convert(inst, objects, "inst", ns)
	if err != nil {
		t.Fatalf("Convert, secretRef without key: %v", err)
	}
	if cfg := string(root.Imports.Targets["cluster"].Spec.Config); cfg != `{"extra":{"n":1},"kubeconfig":"top-secret-whole"}` {
		t.Errorf("secretRef without key: config %s, want the whole Secret", cfg)
	}

	if err := kube.CoreV1().Secrets(ns).Delete(ctx, "kc", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := dyn.Resource(landscaperfixture.GVR("Target")).Namespace(ns).Delete(ctx, "by-secret", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	objects, err = withHostObjects(ctx, host, inst, &landscaperyaml.Set{}, ns)
	if err != nil {
		t.Fatalf("withHostObjects without the Target: %v", err)
	}
	if _, err := landscaperyaml.Convert(inst, objects, "inst", ns); err == nil || !strings.Contains(err.Error(), `no Target "by-secret"`) {
		t.Errorf("Convert without the Target: err = %v", err)
	}
}
