package provider

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/provider/shared"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/testsupport/localcluster"
)

// planDiffConfig is the configuration of the plan diff test: an
// installation of testdata/plan-diff with its password from a Secret.
type planDiffConfig struct {
	color, greeting, chart, mode string
	extra                        bool
}

func (c planDiffConfig) hcl(e *accEnv) string {
	mode := "null"
	if c.mode != "" {
		mode = fmt.Sprintf("%q", c.mode)
	}
	return fmt.Sprintf(`
provider "landscaper" {
  kubernetes = { config_path = %[1]q }
}
%[2]s
resource "landscaper_installation" "pd" {
  name      = "pd"
  namespace = %[3]q
  blueprint = { path = %[4]q }
  plan_diff = %[5]s
  imports = {
    targets = { cluster = landscaper_target.cluster.target }
    data = {
      namespace = %[3]q, color = %[6]q, extra = %[7]t, greeting = %[8]q, chartVersion = %[9]q
    }
    secrets = { password = { name = "pd-password", namespace = %[3]q, key = "password" } }
  }
}
`, localcluster.KubeconfigPath(e.t), e.targetHCL, e.namespace, blueprintDir(e.t, "plan-diff"), mode, c.color, c.extra, c.greeting, c.chart)
}

// diffLines are the lines a plan shows as added ('+') or removed ('-')
// inside deploy_item_objects (each object a list of its lines), unquoted
// and without their indentation; a line Terraform 1.16 shows as changed
// in place ("~ old -> new") counts as removed and added, and an added or
// removed object as its header, "# <key>".
func diffLines(out string, marker byte) []string {
	var lines []string
	element := regexp.MustCompile(`^\s+([+-]) ("(?:[^"\\]|\\.)*"),?$`)
	inPlace := regexp.MustCompile(`^\s+~ ("(?:[^"\\]|\\.)*") -> ("(?:[^"\\]|\\.)*"),?$`)
	object := regexp.MustCompile(`^\s+([+-]) ("(?:[^"\\]|\\.)*")\s+= \[$`)
	unquote := func(q string) string {
		s, err := strconv.Unquote(q)
		if err != nil {
			return q
		}
		return strings.TrimSpace(s)
	}
	in := false
	for _, l := range strings.Split(out, "\n") {
		switch {
		case strings.Contains(l, "deploy_item_objects"):
			in = true
			continue
		case in && strings.Contains(l, "deploy_items "):
			in = false
		}
		if !in {
			continue
		}
		if m := element.FindStringSubmatch(l); m != nil && m[1][0] == marker {
			lines = append(lines, unquote(m[2]))
		} else if m := object.FindStringSubmatch(l); m != nil && m[1][0] == marker {
			lines = append(lines, "# "+unquote(m[2]))
		} else if m := inPlace.FindStringSubmatch(l); m != nil {
			lines = append(lines, unquote(m[1+map[byte]int{'-': 0, '+': 1}[marker]]))
		}
	}
	sort.Strings(lines)
	return lines
}

// The plan shows what changes in the objects of each deploy item: a
// create lists them; a manifest field change shows that field alone, a
// removed object its lines removed, a Secret a new marker and never the
// value; a Helm values change and a chart version change the objects they
// change and add; with plan_diff = "server", a field another manager set
// out of band. `show -json` carries the same texts.
func TestAccInstallation_planDiff(t *testing.T) {
	e := newAccEnv(t)
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	password := func(n int) string { return fmt.Sprintf("pdpw%s%d", hex.EncodeToString(b), n) }
	secrets := e.kube.CoreV1().Secrets(e.namespace)
	if _, err := secrets.Create(context.Background(), &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Name: "pd-password"},
		StringData: map[string]string{"password": password(1)}}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	cfg := planDiffConfig{color: "blue", greeting: "hello", chart: "1.0.0", extra: true}
	w := newCLIWorkspace(t, cfg.hcl(e))
	defer w.run("destroy", "-auto-approve") //nolint:errcheck // best-effort cleanup; the checks below decide
	root := e.namespace + ".pd"
	noSecret := func(step, out string) {
		t.Helper()
		for n := 1; n <= 2; n++ {
			if strings.Contains(out, password(n)) {
				t.Fatalf("%s: the password is in the output:\n%s", step, out)
			}
		}
	}
	wantAll := func(step string, got []string, want ...string) {
		t.Helper()
		for _, w := range want {
			if !slices.Contains(got, w) {
				t.Errorf("%s: the plan's changed lines lack %q; they are %q", step, w, got)
			}
		}
	}

	// A create lists every object, known at plan, in the plan file too.
	out := w.mustRun("plan", "-out=create.tfplan")
	noSecret("create", out)
	// A create's objects are shown whole, each a list of its lines.
	for _, line := range []string{`"v1 ConfigMap ` + e.namespace + `/pd-settings"`, `"  color: blue",`, `"v1 ConfigMap ` + e.namespace + `/pd-extra"`,
		`"v1 Secret ` + e.namespace + `/pd-secret"`, `"  password: (sensitive value v1)",`, `"v1 ConfigMap pd-app-greeting"`, `"  greeting: hello",`} {
		if !regexp.MustCompile(`(?m)^\s+(\+ )?` + regexp.QuoteMeta(line) + `(\s+= \[)?$`).MatchString(out) {
			t.Errorf("the create's plan does not show %q:\n%s", line, out)
		}
	}
	show := w.mustRun("show", "-json", "create.tfplan")
	noSecret("show -json", show)
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
	if err := json.Unmarshal([]byte(show), &plan); err != nil {
		t.Fatal(err)
	}
	for _, r := range plan.PlannedValues.RootModule.Resources {
		if r.Address != "landscaper_installation.pd" {
			continue
		}
		raw, _ := r.Values["deploy_item_objects"].(string)
		var objs map[string]map[string][]string // item → object → lines
		err := json.Unmarshal([]byte(raw), &objs)
		settings := strings.Join(objs[root+"/settings"]["v1 ConfigMap "+e.namespace+"/pd-settings"], "\n")
		if err != nil || !strings.Contains(settings, "color: blue") || len(objs) != 3 {
			t.Errorf("show -json's deploy_item_objects (%v): %q", err, raw)
		}
	}
	w.mustRun("apply", "create.tfplan")

	// A field, a removed object and a Secret's value.
	if _, err := secrets.Patch(context.Background(), "pd-password", types.MergePatchType,
		[]byte(fmt.Sprintf(`{"stringData":{"password":%q}}`, password(2))), metav1.PatchOptions{}); err != nil {
		t.Fatal(err)
	}
	cfg.color, cfg.extra = "green", false
	w.write(cfg.hcl(e))
	out = w.mustRun("plan")
	noSecret("update", out)
	if got, want := diffLines(out, '+'), []string{"color: green", "password: (sensitive value v2)"}; strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("the plan adds the lines %q, want exactly %q:\n%s", got, want, out)
	}
	wantAll("update", diffLines(out, '-'), "color: blue", "password: (sensitive value v1)",
		"# v1 ConfigMap "+e.namespace+"/pd-extra", "purpose: removed later")
	noSecret("apply", w.mustRun("apply", "-auto-approve"))

	// Helm values and the chart's version.
	cfg.greeting, cfg.chart = "hi", "2.0.0"
	w.write(cfg.hcl(e))
	out = w.mustRun("plan")
	wantAll("chart", diffLines(out, '+'), "greeting: hi", "helm.sh/chart: app-2.0.0", "# v1 Service pd-app", "port: 80")
	wantAll("chart", diffLines(out, '-'), "greeting: hello", "helm.sh/chart: app-1.0.0")
	if strings.Contains(out, "color:") {
		t.Errorf("the unchanged manifest item is shown:\n%s", out)
	}
	w.mustRun("apply", "-auto-approve")

	// Switching to the server's view runs no job; then a field set out of
	// band (and a label another manager added) shows in the plan.
	cfg.mode = shared.PlanDiffServer
	w.write(cfg.hcl(e))
	out = w.mustRun("apply", "-auto-approve")
	if strings.Contains(out, "job_id") {
		t.Errorf("switching plan_diff runs a job:\n%s", out)
	}
	if _, err := e.kube.CoreV1().ConfigMaps(e.namespace).Patch(context.Background(), "pd-settings", types.MergePatchType,
		[]byte(`{"data":{"color":"red"},"metadata":{"labels":{"team":"ops"}}}`), metav1.PatchOptions{FieldManager: "intruder"}); err != nil {
		t.Fatal(err)
	}
	out = w.mustRun("plan", "-out=server.tfplan")
	wantAll("server", diffLines(out, '-'), "color: red")
	wantAll("server", diffLines(out, '+'), "color: green")
	// The label is in both views, so the plan hides it among the unchanged
	// lines; the planned objects hold it.
	if show := w.mustRun("show", "-json", "server.tfplan"); !strings.Contains(show, `team: ops`) {
		t.Errorf("the server's view lacks the label another manager set:\n%s", show)
	}
}
