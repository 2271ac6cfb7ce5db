package provider

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	fwtypes "github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/provider/shared"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/testsupport/localcluster"
)

// shapeConfig is an installation of testdata/shape34-big: one item of
// about 1,000 rendered lines with one field the test changes, a Secret
// from a Secret import, and an output that reads one object's YAML back
// from deploy_item_objects as a consumer would.
func shapeConfig(e *accEnv, field string) string {
	return fmt.Sprintf(`
provider "landscaper" {
  kubernetes = { config_path = %[1]q }
}
%[2]s
resource "landscaper_installation" "big" {
  name      = "big"
  namespace = %[3]q
  blueprint = { path = %[4]q }
  imports = {
    targets = { cluster = landscaper_target.cluster.target }
    data    = { namespace = %[3]q, field = %[5]q }
    secrets = { password = { name = "big-password", namespace = %[3]q, key = "password" } }
  }
}
output "big_4" {
  value = join("\n", jsondecode(landscaper_installation.big.deploy_item_objects)[%[6]q]["v1 ConfigMap %[3]s/big-4"])
}
`, localcluster.KubeconfigPath(e.t), e.targetHCL, e.namespace, blueprintDir(e.t, "shape34-big"), field, e.namespace+".big/big")
}

// objectsBlock is the plan's rendering of deploy_item_objects: from its
// line to the closing parenthesis of jsonencode(…).
func objectsBlock(out string) []string {
	lines := strings.Split(out, "\n")
	for i, l := range lines {
		at := strings.Index(l, "deploy_item_objects")
		if at < 0 {
			continue
		}
		end := strings.Repeat(" ", strings.IndexAny(l, "~+-")+2) + ")"
		for j := i + 1; j < len(lines); j++ {
			if lines[j] == end {
				return lines[i : j+1]
			}
		}
		return lines[i:]
	}
	return nil
}

// Issue 34 item 2: a one-field change in an item of 1,000 rendered lines
// prints about ten lines of deploy_item_objects (unchanged objects and
// lines hidden, a line of context on each side), on every CLI; a Secret's
// new value shows as a new marker in the same shape and never as itself;
// a consumer gets an object's YAML by joining its lines (HCL and show
// -json); a state of schema version 0 (one string per item) upgrades to
// the new shape without a change in the next plan.
func TestAccShape34_oneFieldChangeStaysSmall(t *testing.T) {
	e := newAccEnv(t)
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	password := func(n int) string { return fmt.Sprintf("shpw%s%d", hex.EncodeToString(b), n) }
	secrets := e.kube.CoreV1().Secrets(e.namespace)
	if _, err := secrets.Create(context.Background(), &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Name: "big-password"},
		StringData: map[string]string{"password": password(1)}}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	w := newCLIWorkspace(t, shapeConfig(e, "one"))
	defer w.run("destroy", "-auto-approve") //nolint:errcheck // best-effort cleanup; the checks below decide
	noSecret := func(step, out string) {
		t.Helper()
		for n := 1; n <= 2; n++ {
			if strings.Contains(out, password(n)) {
				t.Fatalf("%s: the password is in the output:\n%s", step, out)
			}
		}
	}
	item := e.namespace + ".big/big"
	created := w.mustRun("plan", "-out=create.tfplan")
	noSecret("create", created)
	if n := len(objectsBlock(created)); n < 1000 {
		t.Errorf("the create shows %d lines of deploy_item_objects, want every line of the item", n)
	}
	w.mustRun("apply", "create.tfplan")
	if got := w.mustRun("output", "-raw", "big_4"); !strings.Contains(got, "apiVersion: v1\nkind: ConfigMap\n") || !strings.Contains(got, "\n  field: one") {
		t.Errorf("the object's YAML read back in HCL is\n%s", got)
	}

	// One field of ConfigMap big-4 (line 60 of 126).
	w.write(shapeConfig(e, "two"))
	out := w.mustRun("plan", "-out=change.tfplan")
	block := objectsBlock(out)
	t.Logf("a one-field change prints %d lines of deploy_item_objects:\n%s", len(block), strings.Join(block, "\n"))
	if len(block) > 30 {
		t.Errorf("a one-field change prints %d lines of deploy_item_objects, want at most 30", len(block))
	}
	text := strings.Join(block, "\n")
	changed := regexp.MustCompile(`(?m)^\s+- "  field: one",?\n\s+\+ "  field: two",?$|~ "  field: one" -> "  field: two"`)
	if !changed.MatchString(text) || !strings.Contains(text, "unchanged attributes hidden") || !strings.Contains(text, "unchanged elements hidden") {
		t.Errorf("the change is not shown as one changed line among hidden ones:\n%s", text)
	}
	var plan struct {
		PlannedValues struct {
			RootModule struct {
				Resources []struct {
					Address string
					Values  map[string]any
				}
			} `json:"root_module"`
		} `json:"planned_values"`
	}
	if err := json.Unmarshal([]byte(w.mustRun("show", "-json", "change.tfplan")), &plan); err != nil {
		t.Fatal(err)
	}
	for _, r := range plan.PlannedValues.RootModule.Resources {
		if r.Address != "landscaper_installation.big" {
			continue
		}
		raw, _ := r.Values["deploy_item_objects"].(string)
		var objs map[string]map[string][]string
		if err := json.Unmarshal([]byte(raw), &objs); err != nil {
			t.Fatalf("show -json's deploy_item_objects is not item → object → lines: %v", err)
		}
		if yaml := strings.Join(objs[item]["v1 ConfigMap "+e.namespace+"/big-4"], "\n"); !strings.Contains(yaml, "\n  field: two") || len(objs[item]) != 9 {
			t.Errorf("show -json's objects of %s: %d, big-4 is\n%s", item, len(objs[item]), yaml)
		}
	}
	w.mustRun("apply", "change.tfplan")

	// The Secret's value: a new marker, in its line, never the value.
	if _, err := secrets.Patch(context.Background(), "big-password", types.MergePatchType,
		[]byte(fmt.Sprintf(`{"stringData":{"password":%q}}`, password(2))), metav1.PatchOptions{}); err != nil {
		t.Fatal(err)
	}
	out = w.mustRun("plan", "-out=secret.tfplan")
	noSecret("secret", out)
	noSecret("secret show -json", w.mustRun("show", "-json", "secret.tfplan"))
	masked := regexp.MustCompile(`- "  password: \(sensitive value v1\)",?\n\s+\+ "  password: \(sensitive value v2\)"|~ "  password: \(sensitive value v1\)" -> "  password: \(sensitive value v2\)"`)
	if !masked.MatchString(out) {
		t.Errorf("the Secret's new value is not shown as a new marker:\n%s", strings.Join(objectsBlock(out), "\n"))
	}
	noSecret("secret apply", w.mustRun("apply", "secret.tfplan"))

	// A state of schema version 0: the same texts, one string per item.
	w.editState(func(state map[string]any) {
		for _, r := range state["resources"].([]any) {
			res := r.(map[string]any)
			if res["type"] != "landscaper_installation" {
				continue
			}
			inst := res["instances"].([]any)[0].(map[string]any)
			attrs := inst["attributes"].(map[string]any)
			texts, ok := shared.ParseTexts(fwtypes.StringValue(attrs["deploy_item_objects"].(string)))
			if !ok {
				t.Fatal("the state's deploy_item_objects does not read")
			}
			old, _ := json.Marshal(texts)
			attrs["deploy_item_objects"] = string(old)
			inst["schema_version"] = 0
		}
	})
	if out, err := w.run("plan", "-detailed-exitcode"); err != nil {
		t.Errorf("the plan after the state of version 0 is not empty (%v):\n%s", err, out)
	}
	w.mustRun("apply", "-refresh-only", "-auto-approve")
	upgraded := string(w.editState(func(map[string]any) {}))
	if !strings.Contains(upgraded, `"schema_version": 1`) || !strings.Contains(upgraded, `\"v1 ConfigMap `+e.namespace+`/big-4\":[`) {
		t.Errorf("the upgraded state does not hold the new shape:\n%.2000s", upgraded)
	}
}
