package provider

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	authv1 "k8s.io/api/authentication/v1"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/clientcmd"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/testsupport/localcluster"
)

// namespacedKubeconfig writes a kubeconfig for the local cluster whose
// context namespace is namespace; with token set it authenticates with
// that token instead of the admin's credentials.
func namespacedKubeconfig(t *testing.T, namespace, token string) string {
	t.Helper()
	cfg, err := clientcmd.LoadFromFile(localcluster.KubeconfigPath(t))
	if err != nil {
		t.Fatal(err)
	}
	kctx := cfg.Contexts[cfg.CurrentContext]
	kctx.Namespace = namespace
	if token != "" {
		user := cfg.AuthInfos[kctx.AuthInfo].DeepCopy()
		user.ClientCertificate, user.ClientCertificateData, user.ClientKey, user.ClientKeyData = "", nil, "", nil
		user.Username, user.Password, user.Token = "", "", token
		cfg.AuthInfos["restricted"] = user
		kctx.AuthInfo = "restricted"
	}
	path := filepath.Join(t.TempDir(), "kubeconfig")
	if err := clientcmd.WriteToFile(*cfg, path); err != nil {
		t.Fatal(err)
	}
	return path
}

// restrictedToken is a token of a service account that may act only in
// namespace (ClusterRole admin bound there).
func (e *accEnv) restrictedToken(namespace string) string {
	ctx := context.Background()
	sa, err := e.kube.CoreV1().ServiceAccounts(namespace).Create(ctx, &corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Name: "deployer"}}, metav1.CreateOptions{})
	if err != nil {
		e.t.Fatal(err)
	}
	_, err = e.kube.RbacV1().RoleBindings(namespace).Create(ctx, &rbacv1.RoleBinding{
		ObjectMeta: metav1.ObjectMeta{Name: "deployer-admin"},
		RoleRef:    rbacv1.RoleRef{APIGroup: "rbac.authorization.k8s.io", Kind: "ClusterRole", Name: "admin"},
		Subjects:   []rbacv1.Subject{{Kind: "ServiceAccount", Name: sa.Name, Namespace: namespace}},
	}, metav1.CreateOptions{})
	if err != nil {
		e.t.Fatal(err)
	}
	tr, err := e.kube.CoreV1().ServiceAccounts(namespace).CreateToken(ctx, sa.Name, &authv1.TokenRequest{}, metav1.CreateOptions{})
	if err != nil {
		e.t.Fatal(err)
	}
	return tr.Status.Token
}

// switchInstallation deploys the ConfigMaps "first" and "second" (after
// first, no namespace: they go to the kubeconfig's) to the target read
// from kubeconfig; with fail, first is rejected by the API server.
func switchInstallation(kubeconfig string, fail bool) string {
	name := "first"
	if fail {
		name = "Not_A_Valid_Name"
	}
	target := fmt.Sprintf(`
resource "landscaper_target" "cluster" {
  name       = "cluster"
  kubeconfig = file(%q)
}
`, kubeconfig)
	return inlineInstallation(target, "switch", "",
		manifestItem("first", "", "{apiVersion: v1, kind: ConfigMap, metadata: {name: "+name+"}, data: {a: b}}")+
			manifestItem("second", "dependsOn: [first]", "{apiVersion: v1, kind: ConfigMap, metadata: {name: second}, data: {a: b}}"))
}

// noConfigMapsIn checks that none of the names exists in namespace.
func (e *accEnv) noConfigMapsIn(namespace string, names ...string) func(*terraform.State) error {
	return func(*terraform.State) error {
		for _, name := range names {
			_, err := e.kube.CoreV1().ConfigMaps(namespace).Get(context.Background(), name, metav1.GetOptions{})
			if err == nil {
				return fmt.Errorf("ConfigMap %s/%s exists", namespace, name)
			}
			if !apierrors.IsNotFound(err) {
				return err
			}
		}
		return nil
	}
}

// A target switch from one namespace (admin user) to another (a user
// allowed only there) whose job fails before every item was re-applied:
// the old side is emptied before anything is applied to the new one, and
// destroy removes what is on the new side (issue 10 item 2; before, the
// old side kept its objects and destroy failed looking for them with the
// new target's user).
func TestAccInstallation_targetSwitchFailedJob(t *testing.T) {
	e := newAccEnv(t)
	nsA, nsB := e.namespace, localcluster.Namespace(t)
	kubeA := namespacedKubeconfig(t, nsA, "")
	kubeB := namespacedKubeconfig(t, nsB, e.restrictedToken(nsB))
	defer os.Remove(kubeB)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviders,
		CheckDestroy: resource.ComposeAggregateTestCheckFunc(
			e.noConfigMapsIn(nsA, "first", "second"), e.noConfigMapsIn(nsB, "first", "second")),
		Steps: []resource.TestStep{
			{
				Config: switchInstallation(kubeA, false),
				Check: resource.ComposeAggregateTestCheckFunc(
					func(*terraform.State) error {
						for _, n := range []string{"first", "second"} {
							if _, err := e.kube.CoreV1().ConfigMaps(nsA).Get(context.Background(), n, metav1.GetOptions{}); err != nil {
								return err
							}
						}
						return nil
					}),
			},
			{
				Config:      switchInstallation(kubeB, true),
				ExpectError: regexp.MustCompile(`Installation Failed`),
			},
			{
				PreConfig: func() {
					if err := e.noConfigMapsIn(nsA, "first", "second")(nil); err != nil {
						t.Fatalf("the old side was not cleaned: %v", err)
					}
				},
				Config:             switchInstallation(kubeB, true),
				PlanOnly:           true,
				ExpectNonEmptyPlan: true,
			},
		},
	})
}

// gatedObjectsIn is how many of a gated installation's objects (the
// ConfigMap "first", the Deployment "slow") exist in namespace.
func (e *accEnv) gatedObjectsIn(namespace string) int {
	e.t.Helper()
	ctx := context.Background()
	n := 0
	for _, get := range []func() error{
		func() error {
			_, err := e.kube.CoreV1().ConfigMaps(namespace).Get(ctx, "first", metav1.GetOptions{})
			return err
		},
		func() error {
			_, err := e.kube.AppsV1().Deployments(namespace).Get(ctx, "slow", metav1.GetOptions{})
			return err
		},
	} {
		switch err := get(); {
		case err == nil:
			n++
		case !apierrors.IsNotFound(err):
			e.t.Fatal(err)
		}
	}
	return n
}

// The first apply (the create) is interrupted with Ctrl-C while it waits
// for a Deployment on the old side; then the target switches to another
// namespace whose user may act only there. The next apply empties the
// old side before it deploys to the new one, and destroy empties the new
// side: nothing is left on either side, no inventory either.
func TestAccInstallation_targetSwitchAfterInterruptedCreate(t *testing.T) {
	requireAcc(t)
	e := newAccEnv(t)
	nsA, nsB := e.namespace, localcluster.Namespace(t)
	kubeA := namespacedKubeconfig(t, nsA, "")
	kubeB := namespacedKubeconfig(t, nsB, e.restrictedToken(nsB))
	config := func(kubeconfig string, schedulable bool) string {
		target := fmt.Sprintf(`
resource "landscaper_target" "cluster" {
  name       = "cluster"
  kubeconfig = file(%q)
}
`, kubeconfig)
		podSpec := `nodeSelector: {no-such-node: "true"}`
		if schedulable {
			podSpec = "terminationGracePeriodSeconds: 0"
		}
		return e.gatedInstallationOn(target, "", "switched", "slow", podSpec)
	}
	w := newCLIWorkspace(t, config(kubeA, false))

	cmd, wait := w.start("apply", "-auto-approve", "-input=false")
	e.waitForDeploymentIn(nsA, "slow")
	w.interrupt(cmd, wait)
	if state := w.mustRun("state", "list"); !strings.Contains(state, "landscaper_installation.switched") {
		t.Fatalf("the interrupted create was not recorded in state:\n%s", state)
	}
	if n := e.gatedObjectsIn(nsA); n != 2 {
		t.Fatalf("the interrupted create left %d objects on the old side, want both to switch away from", n)
	}

	w.write(config(kubeB, true))
	w.mustRun("apply", "-auto-approve", "-input=false")
	if n := e.gatedObjectsIn(nsA); n != 0 {
		t.Errorf("after the switch %d objects are left on the old side", n)
	}
	if n := e.gatedObjectsIn(nsB); n != 2 {
		t.Errorf("the switch deployed %d of 2 objects to the new side", n)
	}
	if p := e.inventoryParent("switched"); p != nil && p.Namespace == nsA {
		t.Errorf("the old side keeps the inventory %s/%s", p.Namespace, p.Name)
	}

	w.mustRun("destroy", "-auto-approve", "-input=false")
	for _, ns := range []string{nsA, nsB} {
		if n := e.gatedObjectsIn(ns); n != 0 {
			t.Errorf("destroy left %d objects in %s", n, ns)
		}
	}
	if p := e.inventoryParent("switched"); p != nil {
		t.Errorf("destroy left the inventory %s/%s", p.Namespace, p.Name)
	}
}
