package provider

import (
	"context"
	"fmt"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer/external"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/testsupport/localcluster"
)

// Issue 32 (3): a deployer (or whoever may write DeployItems) that
// reports a Secret of another namespace as the item's exportRef gets
// nothing from it: the apply fails naming the reference, and no value of
// the Secret reaches the state. Before, the provider read the Secret with
// its own credentials and returned it as the item's exports.
func TestAccExternalDeployer_foreignExportRef(t *testing.T) {
	e := newExtEnv(t)
	other := localcluster.Namespace(t)
	stolen := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Name: "stolen", Namespace: other},
		Data: map[string][]byte{external.ExportKey: []byte("secret: not-for-this-installation")}}
	if _, err := e.kube.CoreV1().Secrets(other).Create(context.Background(), stolen, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	config := e.providerHCL("30s") + inlineInstallation(e.targetHCL, "rogue", e.namespace,
		testItem("rogue", fmt.Sprintf("exportRef: {name: stolen, namespace: %s}", other)))
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviders,
		Steps: []resource.TestStep{{
			Config:      config,
			ExpectError: regexp.MustCompile(`(?s)status\.exportRef\s+names\s+a\s+Secret\s+in\s+namespace.*exports\s+are\s+read\s+only\s+from`),
		}},
	})
}
