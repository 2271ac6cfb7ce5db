package external_test

import (
	"context"
	"encoding/base64"
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer/external"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/testsupport/localcluster"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/testsupport/testdeployer"
)

// What the installation hands over arrives: the Result names every
// object this side wrote (for the inventory), each carrying the
// inventory's part-of label; the installation's Landscaper Context is in
// the Context the deployer reads; a target whose kubeconfig the provider
// block holds reaches the deployer through a Secret its Target
// references, and the Secret goes with the item.
func testHandedOver(t *testing.T, w *world) {
	const reference = "ref-1"
	kubeconfig := localcluster.Kubeconfig(t)
	d := external.New(external.Options{Client: w.client, Namespace: w.namespace,
		Kubeconfig: func(tg *api.Target) (string, bool, error) {
			if tg.Metadata.Annotations[api.KubeconfigFromProviderAnnotation] != reference {
				return "", false, errors.New("not the provider's target")
			}
			return kubeconfig, true, nil
		}})
	item := w.item("handed", testdeployer.Config{ConfigMap: w.configMap("handed", "1"), ExportContext: "configurations"})
	tg := api.NewTarget("fenced", "", api.KubernetesClusterTargetType, nil)
	tg.Metadata.Annotations = map[string]string{api.KubeconfigFromProviderAnnotation: reference, "zone": "inner"}
	item.Target, item.PartOf = &tg, "applyset-test-v1"
	item.Context = map[string]any{"configurations": map[string]any{"team": "blue"}}

	res := mustApply(t, d, item)
	st := status(t, res)
	secretName := st.Name + "-kubeconfig"
	want := []deployer.ObjectRef{
		{APIVersion: "landscaper.gardener.cloud/v1alpha1", Kind: "DeployItem", Namespace: w.namespace, Name: st.Name},
		{APIVersion: "landscaper.gardener.cloud/v1alpha1", Kind: "Context", Namespace: w.namespace, Name: st.Name},
		{APIVersion: "landscaper.gardener.cloud/v1alpha1", Kind: "Target", Namespace: w.namespace, Name: st.Name},
		{APIVersion: "v1", Kind: "Secret", Namespace: w.namespace, Name: secretName},
	}
	if !slices.Equal(res.Objects, want) {
		t.Errorf("Objects = %v, want %v", res.Objects, want)
	}
	if got := res.Exports["context"]; !reflect.DeepEqual(got, map[string]any{"team": "blue"}) {
		t.Errorf("the deployer read %v from the Context, want the installation's configurations", got)
	}
	if cm := w.get(t, configMaps, "handed"); cm == nil {
		t.Error("the deployer did not reach the target through the kubeconfig Secret")
	}
	target := w.get(t, external.Targets, st.Name)
	if nested(target, "spec", "secretRef", "name") != secretName || nested(target, "spec", "config") != "" ||
		target.GetAnnotations()["zone"] != "inner" || target.GetAnnotations()[api.KubeconfigFromProviderAnnotation] != "" {
		t.Errorf("Target = %v", target.Object)
	}
	secret := w.get(t, secrets, secretName)
	if raw, _ := base64.StdEncoding.DecodeString(nested(secret, "data", "kubeconfig")); string(raw) != kubeconfig {
		t.Error("the Secret does not hold the provider block's kubeconfig")
	}
	for _, ref := range want {
		obj := w.get(t, gvrOf(ref), ref.Name)
		if obj == nil || obj.GetLabels()[deployer.PartOfLabel] != item.PartOf {
			t.Errorf("%s %s: part-of label missing", ref.Kind, ref.Name)
		}
	}
	// A changed kubeconfig Secret is drift, told without the kubeconfig.
	item.ProviderStatus = res.ProviderStatus
	secret.Object["data"] = map[string]any{"kubeconfig": base64.StdEncoding.EncodeToString([]byte("changed"))}
	if _, err := w.res(secrets).Update(context.Background(), secret, metav1UpdateOptions); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if report, err := d.Drift(ctx, item); err != nil || !report.Drifted || !strings.Contains(report.Reason, "kubeconfig of the provider block differs") ||
		strings.Contains(report.Reason, "changed\"") {
		t.Errorf("Drift = %+v, %v", report, err)
	}
	// The next apply repairs it; the deletion goes through it.
	item.ProviderStatus = mustApply(t, d, item).ProviderStatus
	mustDelete(t, d, item, deployer.DeleteOptions{})
	for _, ref := range want {
		if w.get(t, gvrOf(ref), ref.Name) != nil {
			t.Errorf("%s %s left after Delete", ref.Kind, ref.Name)
		}
	}
}
