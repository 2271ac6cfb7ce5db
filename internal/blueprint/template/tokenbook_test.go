package template

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	authnv1 "k8s.io/api/authentication/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/target"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/testsupport/localcluster"
)

// A deploy execution's getServiceAccountKubeconfig: known only after
// apply at first, minted at apply, then the same kubeconfig at every
// render while the token has more than half of its lifetime left, and
// renewed after that.
func TestTokenBook_LocalCluster(t *testing.T) {
	kubeconfig := localcluster.Kubeconfig(t)
	ns := localcluster.Namespace(t)
	admin, err := kubernetes.NewForConfig(localcluster.RESTConfig(t))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	sa := &corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Name: "deployer"}}
	if _, err := admin.CoreV1().ServiceAccounts(ns).Create(ctx, sa, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	pool := target.NewPool()
	pool.Trust(kubeconfig)
	raw, err := json.Marshal(api.NewTarget("cluster", "", api.KubernetesClusterTargetType,
		mustMarshal(t, api.KubernetesClusterConfig{Kubeconfig: kubeconfig})))
	if err != nil {
		t.Fatal(err)
	}
	var cluster map[string]any
	if err := json.Unmarshal(raw, &cluster); err != nil {
		t.Fatal(err)
	}
	const tmpl = `deployItems:
- name: app
  config:
    kubeconfig: {{ getServiceAccountKubeconfig "deployer" .ns 3600 .cluster | quote }}`
	var learned []string
	learn := func(v ...string) { learned = append(learned, v...) }
	render := func(book *TokenBook) (string, error) {
		res, err := Run(Request{Kind: "deploy execution", Execution: inline(TypeGoTemplate, tmpl), Cluster: DeployClusters(WithTokenBook(ctx, book)),
			Context: ctx, Values: map[string]any{"ns": ns, "cluster": cluster}})
		if err != nil {
			return "", err
		}
		items, _ := res.Output["deployItems"].([]any)
		item, _ := items[0].(map[string]any)
		config, _ := item["config"].(map[string]any)
		s, _ := config["kubeconfig"].(string)
		return s, nil
	}

	// The first plan: nothing recorded, nothing minted.
	plan := NewTokenBook(pool, nil, false, learn)
	if _, err := render(plan); !errors.Is(err, ErrTokenAtApply) || !plan.Pending() {
		t.Fatalf("first plan: err %v, pending %v; want ErrTokenAtApply", err, plan.Pending())
	}
	// The apply mints a working token and learns it.
	apply := NewTokenBook(pool, nil, true, learn)
	minted, err := render(apply)
	if err != nil {
		t.Fatal(err)
	}
	token := bearer(t, minted)
	if !slices.Contains(learned, token) {
		t.Error("the minted token was not learned as a secret")
	}
	if _, err := as(t, minted).AuthenticationV1().SelfSubjectReviews().Create(ctx, &authnv1.SelfSubjectReview{}, metav1.CreateOptions{}); err != nil {
		t.Fatalf("the minted token is not accepted: %v", err)
	}
	recorded := apply.Used()
	if len(recorded) != 1 {
		t.Fatalf("recorded %d tokens, want 1", len(recorded))
	}
	var rec TokenRecord
	for _, r := range recorded {
		rec = r
	}
	lifetime := rec.Expires.Sub(rec.Issued)

	// A later plan reuses the record: the same kubeconfig, so the plan is empty.
	learned = nil
	again := NewTokenBook(pool, recorded, false, learn)
	again.Now = func() time.Time { return rec.Issued.Add(lifetime / 3) }
	got, err := render(again)
	if err != nil || got != minted {
		t.Fatalf("plan with a fresh record: err %v, same kubeconfig %v", err, got == minted)
	}
	if !slices.Contains(learned, token) {
		t.Error("the reused token was not learned as a secret")
	}
	// A plan that did not render the call (a subinstallation the apply
	// renders after its siblings) passes a fresh record on.
	unrendered := NewTokenBook(pool, recorded, false, learn)
	unrendered.Now = again.Now
	if len(unrendered.Used()) != 1 {
		t.Error("a plan drops a fresh record it did not render")
	}
	// Past half of its lifetime the plan renews it: known after apply,
	// and the apply (which gets only what the plan kept) mints another.
	late := NewTokenBook(pool, recorded, false, learn)
	late.Now = func() time.Time { return rec.Issued.Add(lifetime * 6 / 10) }
	if _, err := render(late); !errors.Is(err, ErrTokenAtApply) {
		t.Fatalf("plan with a stale record: err %v, want ErrTokenAtApply", err)
	}
	if len(late.Used()) != 0 {
		t.Error("the plan passes a stale record on to the apply")
	}
	renewed, err := render(NewTokenBook(pool, late.Used(), true, learn))
	if err != nil {
		t.Fatal(err)
	}
	if bearer(t, renewed) == token {
		t.Error("the renewing apply handed out the old token")
	}
	// An apply right after a plan that kept a record reuses it, also
	// when the half-life passed in between.
	kept := NewTokenBook(pool, recorded, true, learn)
	kept.Now = late.Now
	if got, err := render(kept); err != nil || got != minted {
		t.Errorf("apply with the plan's record: err %v, same kubeconfig %v", err, got == minted)
	}
}

// A shoot's admin kubeconfig is not for deploy executions: it would be
// asked for at plan.
func TestTokenBook_NoShootAdminKubeconfig(t *testing.T) {
	const tmpl = `deployItems: {{ getShootAdminKubeconfig "shoot" "garden-p" 3600 .cluster }}`
	book := NewTokenBook(target.NewPool(), nil, true, nil)
	_, err := Run(Request{Kind: "deploy execution", Execution: inline(TypeGoTemplate, tmpl), Cluster: book,
		Values: map[string]any{"cluster": map[string]any{"spec": map[string]any{"type": "landscaper.gardener.cloud/kubernetes-cluster"}}}})
	if err == nil || !strings.Contains(err.Error(), "export executions only") {
		t.Fatalf("err %v, want the function refused in deploy executions", err)
	}
}

func bearer(t *testing.T, encoded string) string {
	t.Helper()
	cfg := restConfigOf(t, encoded)
	if cfg.BearerToken == "" {
		t.Fatal("the kubeconfig has no token")
	}
	return cfg.BearerToken
}

func as(t *testing.T, encoded string) *kubernetes.Clientset {
	t.Helper()
	c, err := kubernetes.NewForConfig(restConfigOf(t, encoded))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func restConfigOf(t *testing.T, encoded string) *rest.Config {
	t.Helper()
	data, err := base64.StdEncoding.DecodeString(encoded)
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := clientcmd.RESTConfigFromKubeConfig(data)
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// Spiff deploy executions ask the parent for the token: at plan without
// a record the render stops with ErrTokenAtApply as a GoTemplate's does.
func TestTokenBook_SpiffAtPlan(t *testing.T) {
	const tmpl = `deployItems:
- name: app
  config:
    kubeconfig: (( getServiceAccountKubeconfig("deployer", "default", 3600, cluster) ))`
	kubeconfig := "apiVersion: v1\nkind: Config\nclusters: [{name: c, cluster: {server: 'https://127.0.0.1:1'}}]\n" +
		"contexts: [{name: c, context: {cluster: c, user: u}}]\ncurrent-context: c\nusers: [{name: u, user: {token: t}}]\n"
	raw, err := json.Marshal(api.NewTarget("cluster", "", api.KubernetesClusterTargetType,
		mustMarshal(t, api.KubernetesClusterConfig{Kubeconfig: kubeconfig})))
	if err != nil {
		t.Fatal(err)
	}
	var cluster map[string]any
	if err := json.Unmarshal(raw, &cluster); err != nil {
		t.Fatal(err)
	}
	pool := target.NewPool()
	pool.Trust(kubeconfig)
	book := NewTokenBook(pool, nil, false, nil)
	_, err = Run(Request{Kind: "deploy execution", Execution: inline(TypeSpiff, tmpl), Cluster: book,
		Values: map[string]any{"cluster": cluster}})
	if !book.Pending() || err == nil {
		t.Fatalf("err %v, pending %v: want the render stopped for a token only apply can mint", err, book.Pending())
	}
	t.Logf("Spiff's error: %v (errors.Is ErrTokenAtApply: %v)", err, errors.Is(err, ErrTokenAtApply))
}
