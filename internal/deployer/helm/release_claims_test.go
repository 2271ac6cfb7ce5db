package helm_test

import (
	"context"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/testsupport/localcluster"
)

// TestRelease_PlantedRevisionDeletesNothingForeign: someone who may write
// Secrets in the release namespace adds revision N+1 of the item's
// release, with the item's owner label and a manifest that lists a
// ConfigMap of someone else. Neither the next apply (Helm's upgrade would
// delete it as gone from the chart) nor the destroy (Helm's uninstall
// deletes what the newest revision lists) touches the ConfigMap; both
// fail naming the revision.
func TestRelease_PlantedRevisionDeletesNothingForeign(t *testing.T) {
	ns, ch, storage, d := ownershipFixture(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	kube := kubernetes.NewForConfigOrDie(localcluster.RESTConfig(t))
	foreign := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "someone-elses", Namespace: ns}, Data: map[string]string{"k": "v"}}
	if _, err := kube.CoreV1().ConfigMaps(ns).Create(ctx, foreign, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	item := helmItem(t, "root/web", helmConfig(t, ns, rawChart(t, ch), map[string]any{"name": "web", "values": map[string]any{"v": "a"}}))
	item.Instance = "instance-1"
	res, err := d.Apply(ctx, item)
	if err != nil {
		t.Fatal(err)
	}
	item.ProviderStatus = res.ProviderStatus

	planted := *releaseAt(t, storage, "web")
	planted.Version++
	planted.Manifest += "\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: someone-elses\n  namespace: " + ns + "\n"
	planted.Labels = map[string]string{deployer.OwnerLabel: deployer.OwnerValue(item.ID), deployer.InstanceLabel: item.Instance}
	prev := releaseAt(t, storage, "web")
	prev.Info.Status = "superseded"
	if err := storage.Releases.Update(prev); err != nil {
		t.Fatal(err)
	}
	if err := storage.Releases.Create(&planted); err != nil {
		t.Fatal(err)
	}

	if _, err := d.Apply(ctx, item); err == nil || !strings.Contains(err.Error(), "someone-elses") {
		t.Errorf("apply over the planted revision: err = %v, want a refusal naming the ConfigMap", err)
	}
	if err := d.Delete(ctx, item, deployer.DeleteOptions{}); err == nil || !strings.Contains(err.Error(), "not the revision") {
		t.Errorf("destroy over the planted revision: err = %v, want a refusal", err)
	}
	if _, err := kube.CoreV1().ConfigMaps(ns).Get(ctx, "someone-elses", metav1.GetOptions{}); err != nil {
		t.Fatalf("the foreign ConfigMap: %v", err)
	}
}
