package external

import (
	"encoding/json"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/failure"
)

var dnsLabel = regexp.MustCompile(`^[a-z0-9]([a-z0-9-]*[a-z0-9])?$`)

// Names are DNS labels of at most 40 characters, the same for the same ID
// and different for different IDs, also when the item names are equal.
func TestNameFor(t *testing.T) {
	ids := []string{"shop/web/app", "shop/api/app", "other/web/app", "shop/Web_App.Ü", "shop/---",
		"shop/" + strings.Repeat("x", 300), "x/" + strings.Repeat("-a", 50)}
	seen := map[string]string{}
	for _, id := range ids {
		name := nameFor(id)
		if !dnsLabel.MatchString(name) || len(name) > 40 {
			t.Errorf("nameFor(%q) = %q: not a DNS label of at most 40 characters", id, name)
		}
		if name != nameFor(id) {
			t.Errorf("nameFor(%q) is not deterministic", id)
		}
		if other, dup := seen[name]; dup {
			t.Errorf("%q and %q both named %q", id, other, name)
		}
		seen[name] = id
	}
	if got := nameFor("shop/web/app"); !strings.HasPrefix(got, "app-") {
		t.Errorf("nameFor = %q, want the item name first", got)
	}
}

func TestValidate(t *testing.T) {
	d := New(Options{})
	for _, bad := range []string{``, `null`, `[]`, `"x"`, `{}`, `{"kind":"ProviderConfiguration"}`, `{"apiVersion":"a/v1","kind":""}`} {
		err := d.Validate(json.RawMessage(bad))
		if !failure.IsTerminal(err) || failure.Reason(err) != "InvalidConfig" {
			t.Errorf("Validate(%s) = %v, want a terminal InvalidConfig", bad, err)
		}
	}
	if err := d.Validate(json.RawMessage(`{"apiVersion":"container.deployer.landscaper.gardener.cloud/v1alpha1","kind":"ProviderConfiguration","image":"x"}`)); err != nil {
		t.Errorf("Validate of a typed config: %v", err)
	}
}

func testItem() deployer.Item {
	target := api.NewTarget("cluster", "", api.KubernetesClusterTargetType, json.RawMessage(`{"kubeconfig":"apiVersion: v1"}`))
	target.Metadata.Labels = map[string]string{"env": "fenced"}
	target.Metadata.Annotations = map[string]string{"landscaper.gardener.cloud/environment": "dc1"}
	return deployer.Item{ID: "shop/web/app", Name: "app", Type: "landscaper.gardener.cloud/container",
		Target: &target, Config: json.RawMessage(`{"apiVersion":"a/v1","kind":"K"}`), Instance: "0190-instance"}
}

// The DeployItem carries what Landscaper writes from a template and what
// a deployer decides its responsibility by, plus the ownership labels.
func TestDeployItemObject(t *testing.T) {
	item := testItem()
	n := names{namespace: "ls", object: nameFor(item.ID)}
	obj := deployItemObject(item, n, map[string]any{"apiVersion": "a/v1", "kind": "K"}, time.Unix(0, 0))
	want := map[string]string{
		"spec.type": item.Type, "spec.context": n.object, "spec.timeout": "none",
		"spec.target.name": n.object, "spec.target.namespace": "ls",
		"metadata.annotations." + AnnotationDeployerType:   item.Type,
		"metadata.annotations." + AnnotationTargetName:     n.object,
		"metadata.labels." + deployer.OwnerLabel:           deployer.OwnerValue(item.ID),
		"metadata.labels." + deployer.InstanceLabel:        item.Instance,
		"metadata.annotations." + deployer.OwnerAnnotation: item.ID,
	}
	for path, v := range want {
		got, _, _ := unstructured.NestedString(obj.Object, strings.SplitN(path, ".", 3)...)
		if got != v {
			t.Errorf("%s = %q, want %q", path, got, v)
		}
	}
	if f := obj.GetFinalizers(); len(f) != 1 || f[0] != Finalizer {
		t.Errorf("finalizers = %v", f)
	}
	item.Target, item.Timeouts.Progressing = nil, 90*time.Second
	obj = deployItemObject(item, n, nil, time.Now())
	if _, has := obj.Object["spec"].(map[string]any)["target"]; has || obj.GetAnnotations()[AnnotationTargetName] != noTargetName {
		t.Errorf("an item without target: spec %v, annotations %v", obj.Object["spec"], obj.GetAnnotations())
	}
	if got, _, _ := unstructured.NestedString(obj.Object, "spec", "timeout"); got != "1m30s" {
		t.Errorf("spec.timeout = %q", got)
	}
}

// The Target keeps the item's labels and annotations (target selectors);
// one whose kubeconfig is in the provider block references the Secret it
// goes into, and the provider's reference is not written out.
func TestTargetObject(t *testing.T) {
	item := testItem()
	n := names{namespace: "ls", object: "app-x"}
	obj, err := targetObject(item, n)
	if err != nil {
		t.Fatal(err)
	}
	if obj.GetLabels()["env"] != "fenced" || obj.GetAnnotations()["landscaper.gardener.cloud/environment"] != "dc1" ||
		obj.GetLabels()[deployer.OwnerLabel] == "" {
		t.Errorf("metadata = %v / %v", obj.GetLabels(), obj.GetAnnotations())
	}
	if kc, _, _ := unstructured.NestedString(obj.Object, "spec", "config", "kubeconfig"); kc != "apiVersion: v1" {
		t.Errorf("spec.config.kubeconfig = %q", kc)
	}
	item.Target.Metadata.Annotations[api.KubeconfigFromProviderAnnotation] = "ref"
	obj, err = targetObject(item, n)
	if err != nil {
		t.Fatal(err)
	}
	ref, _, _ := unstructured.NestedStringMap(obj.Object, "spec", "secretRef")
	if _, hasConfig := obj.Object["spec"].(map[string]any)["config"]; hasConfig || ref["name"] != kubeconfigSecretName(n) || ref["key"] != KubeconfigKey ||
		obj.GetAnnotations()[api.KubeconfigFromProviderAnnotation] != "" {
		t.Errorf("a target from the provider block: spec %v, annotations %v", obj.Object["spec"], obj.GetAnnotations())
	}
}

func statusWith(m map[string]any) itemStatus {
	return statusOf(&unstructured.Unstructured{Object: map[string]any{"status": m}})
}

// A job counts as picked up by this job's initTime, its end, or a
// reconcile time a whole second after the trigger — not by an earlier
// job's traces.
func TestPickedUp(t *testing.T) {
	for _, tc := range []struct {
		name   string
		status map[string]any
		want   bool
	}{
		{"triggered", map[string]any{"jobID": "j2", "jobIDFinished": "j1", "jobIDGenerationTime": "2024-03-01T10:00:00Z",
			"lastReconcileTime": "2024-03-01T10:00:00Z", "transitionTimes": map[string]any{"triggerTime": "2024-03-01T10:00:00Z"}}, false},
		{"initialized", map[string]any{"jobID": "j2", "jobIDFinished": "j1", "transitionTimes": map[string]any{"initTime": "2024-03-01T10:00:01Z"}}, true},
		{"finished", map[string]any{"jobID": "j2", "jobIDFinished": "j2"}, true},
		{"reconciled later", map[string]any{"jobID": "j2", "jobIDGenerationTime": "2024-03-01T10:00:00Z", "lastReconcileTime": "2024-03-01T10:00:01Z"}, true},
		{"another job", map[string]any{"jobID": "j3", "jobIDFinished": "j3"}, false},
	} {
		if got := statusWith(tc.status).pickedUp("j2"); got != tc.want {
			t.Errorf("%s: pickedUp = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// A failed job's error shows the deployer's lastError with its codes and
// is terminal exactly when a code says a retry cannot help.
func TestJobError(t *testing.T) {
	obj := &unstructured.Unstructured{}
	obj.SetKind("DeployItem")
	obj.SetNamespace("ls")
	obj.SetName("app-x")
	for _, tc := range []struct {
		lastError map[string]any
		terminal  bool
		reason    string
	}{
		{map[string]any{"operation": "Reconcile", "reason": "ImagePull", "message": "no such image", "codes": []any{"ERR_CONFIGURATION_PROBLEM"}}, true, "ImagePull"},
		{map[string]any{"operation": "Reconcile", "reason": "Unauthorized", "message": "401", "codes": []any{"ERR_UNAUTHORIZED"}}, false, "Unauthorized"},
		{map[string]any{"message": "broken"}, false, ReasonDeployerFailed},
		{nil, false, ReasonDeployerFailed},
	} {
		status := map[string]any{"phase": "Failed", "deployer": map[string]any{"name": "container-deployer"}}
		if tc.lastError != nil {
			status["lastError"] = tc.lastError
		}
		obj.Object["status"] = status
		err := jobError(obj, statusOf(obj))
		if failure.IsTerminal(err) != tc.terminal || failure.Reason(err) != tc.reason {
			t.Errorf("lastError %v: terminal %v reason %q, want %v %q: %v", tc.lastError, failure.IsTerminal(err), failure.Reason(err), tc.terminal, tc.reason, err)
		}
		for _, part := range []string{"DeployItem ls/app-x", `"container-deployer"`, `"Failed"`} {
			if !strings.Contains(err.Error(), part) {
				t.Errorf("error %q does not name %s", err, part)
			}
		}
		if codes, _ := tc.lastError["codes"].([]any); len(codes) > 0 && !slices.Contains(failure.Codes(err), codes[0].(string)) {
			t.Errorf("error %q carries codes %v, want %v", err, failure.Codes(err), codes)
		}
	}
}
