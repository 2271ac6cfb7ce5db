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

// TestApply_TakeOwnershipRefusesClaimedObjects: helm --take-ownership
// adopts any existing object the chart renders; the provider lets it adopt
// only objects no other deploy item or installation claims. An object with
// another item's owner label, or another installation's part-of label, is
// refused (naming it) and left as it was; an unlabelled one is adopted as
// before (issue 32, suspicion g).
func TestApply_TakeOwnershipRefusesClaimedObjects(t *testing.T) {
	ns, ch, _, d := ownershipFixture(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	kube := kubernetes.NewForConfigOrDie(localcluster.RESTConfig(t))
	for _, tc := range []struct {
		name   string
		labels map[string]string
		refuse bool
	}{
		{"claimed-by-item", map[string]string{deployer.OwnerLabel: deployer.OwnerValue("other/item")}, true},
		{"claimed-by-installation", map[string]string{deployer.PartOfLabel: "another-applyset"}, true},
		{"unclaimed", nil, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: tc.name, Namespace: ns, Labels: tc.labels}, Data: map[string]string{"v": "theirs"}}
			if _, err := kube.CoreV1().ConfigMaps(ns).Create(ctx, cm, metav1.CreateOptions{}); err != nil {
				t.Fatal(err)
			}
			item := helmItem(t, "root/"+tc.name, helmConfig(t, ns, rawChart(t, ch), map[string]any{"name": tc.name, "values": map[string]any{"v": "mine"},
				"helmDeploymentConfig": map[string]any{"install": map[string]any{"takeOwnership": true}}}))
			_, err := d.Apply(ctx, item)
			got, getErr := kube.CoreV1().ConfigMaps(ns).Get(ctx, tc.name, metav1.GetOptions{})
			if getErr != nil {
				t.Fatal(getErr)
			}
			if !tc.refuse {
				if err != nil || got.Data["v"] != "mine" {
					t.Fatalf("an unclaimed object is not adopted: err = %v, data = %v", err, got.Data)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), "ConfigMap "+ns+"/"+tc.name) || !strings.Contains(err.Error(), "takeOwnership") {
				t.Errorf("Apply over a claimed object: err = %v, want a refusal naming it", err)
			}
			if got.Data["v"] != "theirs" {
				t.Errorf("the claimed object was changed: %v", got.Data)
			}
		})
	}
}
