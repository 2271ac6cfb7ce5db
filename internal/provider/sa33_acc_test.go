package provider

import (
	"context"
	"encoding/base64"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	authnv1 "k8s.io/api/authentication/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/clientcmd"
)

// A deploy execution writes getServiceAccountKubeconfig into a Secret:
// the first plan has the deploy items known after apply, the apply
// mints a token that authenticates as the service account, the next
// plan is empty and the next apply keeps the same token (reused from
// the record, not minted again). The token is in no plan output, state
// file or `show -json`.
func TestAccInstallation_serviceAccountKubeconfigInDeployExecution(t *testing.T) {
	requireAcc(t)
	e := newAccEnv(t)
	ctx := context.Background()
	sa := &corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Name: "sa33-deployer"}}
	if _, err := e.kube.CoreV1().ServiceAccounts(e.namespace).Create(ctx, sa, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	secret := fmt.Sprintf(`{apiVersion: v1, kind: Secret, metadata: {name: sa-kubeconfig, namespace: %[1]s},
  data: {kubeconfig: "{{ getServiceAccountKubeconfig "sa33-deployer" %[1]q 3600 .imports.cluster }}"}}`, e.namespace)
	config := inlineInstallation(e.targetHCL, "sa", e.namespace, manifestItem("kubeconfig", "", secret))

	w := newCLIWorkspace(t, config)
	w.mustRun("init", "-input=false", "-plugin-dir="+providerMirror(t))
	planned := w.mustRun("plan", "-input=false", "-out=tfplan")
	if !strings.Contains(planned, "Deploy Items Known After Apply") {
		t.Errorf("the first plan does not say the deploy items are known after apply:\n%s", planned)
	}
	applied := w.mustRun("apply", "-input=false", "tfplan")
	token, encoded := e.secretToken(t)
	review, err := e.kubeAs(t, encoded)
	if err != nil {
		t.Fatalf("the minted token is not accepted: %v", err)
	}
	if want := "system:serviceaccount:" + e.namespace + ":sa33-deployer"; review != want {
		t.Errorf("authenticated as %q, want %q", review, want)
	}
	secrets := []string{token, encoded}
	assertAbsent(t, "the apply's output", []byte(applied), secrets...)
	state, err := os.ReadFile(filepath.Join(w.dir, "terraform.tfstate"))
	if err != nil {
		t.Fatal(err)
	}
	assertAbsent(t, "the state file", state, secrets...)
	assertAbsent(t, "show -json of the state", []byte(w.mustRun("show", "-json")), secrets...)

	// The record is reused: no change, and no new token.
	again, err := w.run("plan", "-input=false", "-detailed-exitcode")
	if err != nil {
		t.Fatalf("the plan after the apply is not empty (%v):\n%s", err, again)
	}
	assertAbsent(t, "the second plan's output", []byte(again), secrets...)
	w.mustRun("apply", "-input=false", "-auto-approve")
	if next, _ := e.secretToken(t); next != token {
		t.Error("the second apply minted a new token although the recorded one has most of its lifetime left")
	}
}

// secretToken reads the kubeconfig the test's Secret holds: its token and
// the base64 form the template function returned.
func (e *accEnv) secretToken(t *testing.T) (token, encoded string) {
	t.Helper()
	s, err := e.kube.CoreV1().Secrets(e.namespace).Get(context.Background(), "sa-kubeconfig", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	data := s.Data["kubeconfig"]
	cfg, err := clientcmd.RESTConfigFromKubeConfig(data)
	if err != nil || cfg.BearerToken == "" {
		t.Fatalf("the Secret's kubeconfig has no token (%v)", err)
	}
	return cfg.BearerToken, base64.StdEncoding.EncodeToString(data)
}

// kubeAs returns the user the API server sees for the base64 kubeconfig.
func (e *accEnv) kubeAs(t *testing.T, encoded string) (string, error) {
	t.Helper()
	data, err := base64.StdEncoding.DecodeString(encoded)
	if err != nil {
		return "", err
	}
	cfg, err := clientcmd.RESTConfigFromKubeConfig(data)
	if err != nil {
		return "", err
	}
	c, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		return "", err
	}
	r, err := c.AuthenticationV1().SelfSubjectReviews().Create(context.Background(), &authnv1.SelfSubjectReview{}, metav1.CreateOptions{})
	if err != nil {
		return "", err
	}
	return r.Status.UserInfo.Username, nil
}
