package provider

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/testsupport/localcluster"
)

// hostileDir is a blueprint of the unit-level hostile suite.
func hostileDir(t *testing.T, name string) string {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("..", "blueprint", "testdata", "hostile", name))
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// wrapped matches words across the line breaks the CLI puts into
// diagnostics.
func wrapped(words string) *regexp.Regexp {
	parts := strings.Fields(words)
	for i, p := range parts {
		parts[i] = regexp.QuoteMeta(p)
	}
	return regexp.MustCompile(`(?s)` + strings.Join(parts, `\s+`))
}

// Hostile blueprints through the real CLI: plan fails with a diagnostic
// naming what was refused, and nothing is created.
func TestAccSecurity_hostileBlueprintsFailAtPlan(t *testing.T) {
	requireAcc(t)
	e := newAccEnv(t)
	for _, c := range []struct{ dir, want string }{
		{"nested-until/gotemplate", "render limit exceeded"},
		{"string-doubling/gotemplate", "render limit exceeded"},
		{"recursive-spiff-lambda/spiff", "render limit exceeded"},
		{"alias-bomb-in-spiff-template/spiff", "YAML aliases expand to more than"},
		{"symlink-out-of-blueprint/gotemplate", "path escapes from parent"},
		{"gethostbyname/gotemplate", "DNS look-ups are disabled"},
		{"spiff-env/spiff", "environment variable 'HOME' not set"},
	} {
		t.Run(c.dir, func(t *testing.T) {
			w := newCLIWorkspace(t, fmt.Sprintf(`
resource "landscaper_installation" "hostile" {
  name      = "hostile"
  namespace = %q
  blueprint = { path = %q }
}
`, e.namespace, hostileDir(t, c.dir)))
			out, err := w.run("plan")
			if err == nil {
				t.Fatalf("plan succeeded:\n%s", out)
			}
			if !wrapped(c.want).MatchString(out) {
				t.Fatalf("plan output does not say %q:\n%s", c.want, out)
			}
		})
	}
}

// A blueprint exports a target whose kubeconfig runs a command; another
// installation deploys to it. The command never runs, the deploy item
// fails naming the refused field, and nothing is deployed.
func TestAccSecurity_execKubeconfigInExportedTarget(t *testing.T) {
	requireAcc(t)
	e := newAccEnv(t)
	marker := filepath.Join(t.TempDir(), "pwned")
	w := newCLIWorkspace(t, fmt.Sprintf(`
resource "landscaper_installation" "exporter" {
  name      = "exporter"
  namespace = %[1]q
  blueprint = { path = %[2]q }
  imports   = { data = { marker = %[3]q } }
}

resource "landscaper_installation" "consumer" {
  name      = "consumer"
  namespace = %[1]q
  blueprint = { path = %[4]q }
  imports = {
    targets = { cluster = landscaper_installation.exporter.target_exports["cluster"] }
    data    = { namespace = %[1]q }
  }
}
`, e.namespace, blueprintDir(t, "security-exported-exec"), marker, blueprintDir(t, "security-consumer")))
	defer w.run("destroy", "-auto-approve") //nolint:errcheck // best-effort cleanup; the checks below decide
	out, err := w.run("apply", "-auto-approve")
	if err == nil {
		t.Fatalf("apply succeeded:\n%s", out)
	}
	if !wrapped("users[].user.exec").MatchString(out) || !wrapped("allow_exec_in_blueprint_targets").MatchString(out) {
		t.Fatalf("apply output does not name the refused field:\n%s", out)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("the exported kubeconfig's exec command ran")
	}
	if _, err := e.kube.CoreV1().ConfigMaps(e.namespace).Get(context.Background(), "consumer", metav1.GetOptions{}); !apierrors.IsNotFound(err) {
		t.Fatalf("the consumer deployed through the untrusted target: %v", err)
	}
}

// A canary in a sensitive variable, a Secret import, a kubeconfig token,
// Helm values and a chart URL's password and query: every failure path
// runs, and the
// canary appears neither in the CLI's output, nor in `show -json` outside
// sensitive values, nor in the TRACE log.
func TestAccSecurity_secretCanary(t *testing.T) {
	e := newAccEnv(t)
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	canary := "cnry" + hex.EncodeToString(b)
	kubeconfig := localcluster.KubeconfigPath(t)
	secretName := "canary"
	_, err := e.kube.CoreV1().Secrets(e.namespace).Create(context.Background(), &corev1.Secret{
		ObjectMeta: metav1.ObjectMeta{Name: secretName, Namespace: e.namespace},
		StringData: map[string]string{"password": canary},
	}, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}

	bp := blueprintDir(t, "security-canary")
	provider := fmt.Sprintf(`
variable "secret" {
  type      = string
  sensitive = true
  default   = %q
}

provider "landscaper" {
  kubernetes = { config_path = %q }
}
`, canary, kubeconfig)
	installation := func(name, imports string) string {
		return fmt.Sprintf(`
resource "landscaper_installation" %[1]q {
  name      = %[1]q
  namespace = %[2]q
  blueprint = { path = %[3]q }
  imports   = %[4]s
}
`, name, e.namespace, bp, imports)
	}
	dataImports := func(extra string) string {
		return fmt.Sprintf(`{
    targets = { cluster = landscaper_target.cluster.target }
    data    = { namespace = %q %s }
  }`, e.namespace, extra)
	}
	badTokenTarget := fmt.Sprintf(`
resource "landscaper_target" "token" {
  name       = "token"
  kubeconfig = <<-EOT
    apiVersion: v1
    kind: Config
    clusters: [{name: c, cluster: {server: %q, insecure-skip-tls-verify: true}}]
    users: [{name: u, user: {token: "${var.secret}"}}]
    contexts: [{name: c, context: {cluster: c, user: u}}]
    current-context: c
  EOT
}
`, localcluster.RESTConfig(t).Host)

	steps := []struct {
		name, config, want string
		args               []string
	}{
		{"sensitive variable violates the import schema", provider + e.targetHCL +
			installation("variable", dataImports(", password = var.secret")), "violates pattern", []string{"plan"}},
		// The CLI prints the configuration line of a failing attribute, so
		// secrets come from sensitive variables, as they would in real use.
		{"kubeconfig with the canary token is not YAML", provider + `
resource "landscaper_target" "broken" {
  name       = "broken"
  kubeconfig = "users: [{name: u, user: {token: ${var.secret}}}, {{bad: ${var.secret}}}: x]"
}
`, "not a valid kubeconfig", []string{"plan"}},
		{"Secret import violates the import schema", provider + e.targetHCL + installation("secret", fmt.Sprintf(`{
    targets = { cluster = landscaper_target.cluster.target }
    data    = { namespace = %q }
    secrets = { password = { name = %q, namespace = %q, key = "password" } }
  }`, e.namespace, secretName, e.namespace)), "violates pattern", []string{"apply", "-auto-approve"}},
		{"cluster rejects the canary token", provider + badTokenTarget + installation("token", fmt.Sprintf(`{
    targets = { cluster = landscaper_target.token.target }
    data    = { namespace = %q, password = "123" }
  }`, e.namespace)), "Unauthorized", []string{"apply", "-auto-approve"}}, // the first request with the token (today the inventory read) is refused
		{"Helm values from a Secret import violate the chart's schema", provider + e.targetHCL + installation("helmsecret", fmt.Sprintf(`{
    targets = { cluster = landscaper_target.cluster.target }
    data    = { namespace = %q }
    secrets = { helmValue = { name = %q, namespace = %q, key = "password" } }
  }`, e.namespace, secretName, e.namespace)), "does not match pattern", []string{"apply", "-auto-approve"}},
		// Terraform does not tell providers which inputs are sensitive:
		// the value Helm's schema check quotes is masked all the same.
		{"Helm values from a sensitive variable violate the chart's schema", provider + e.targetHCL + installation("helmvar",
			dataImports(`, helmValue = var.secret`)), "does not match pattern", []string{"apply", "-auto-approve"}},
		{"chart URL with the canary as password and query", provider + e.targetHCL + installation("chart",
			dataImports(`, chartURL = "http://user:${var.secret}@127.0.0.1:1/chart.tgz?token=${var.secret}"`)),
			"Installation Failed", []string{"apply", "-auto-approve"}},
	}
	for _, s := range steps {
		t.Run(s.name, func(t *testing.T) {
			w := newCLIWorkspace(t, s.config)
			logPath := filepath.Join(w.dir, "trace.log")
			w.env = append(w.env, "TF_LOG=TRACE", "TF_LOG_PATH="+logPath)
			defer w.run("destroy", "-auto-approve") //nolint:errcheck // best-effort cleanup; the checks below decide
			out, err := w.run(s.args...)
			if err == nil {
				t.Fatalf("%v succeeded:\n%s", s.args, out)
			}
			if !wrapped(s.want).MatchString(out) {
				t.Errorf("output does not say %q:\n%s", s.want, out)
			}
			if strings.Contains(out, canary) {
				t.Errorf("the canary is in the CLI output:\n%s", out)
			}
			show := w.mustRun("show", "-json")
			var doc any
			if err := json.Unmarshal([]byte(show), &doc); err != nil {
				t.Fatalf("show -json: %v", err)
			}
			for _, leak := range canaryOutsideSensitive(doc, canary) {
				t.Errorf("show -json has the canary outside sensitive values at %s", leak)
			}
			trace, err := os.ReadFile(logPath)
			if err != nil {
				t.Fatal(err)
			}
			if i := strings.Index(string(trace), canary); i >= 0 {
				lo, hi := max(0, i-300), min(len(trace), i+100)
				t.Errorf("the TRACE log has the canary: …%s…", trace[lo:hi])
			}
		})
	}
	t.Run("deploy_item_objects of objects holding the canary", func(t *testing.T) { canaryInPlanDiff(t, e, secretName, canary) })
}

// canaryOutsideSensitive lists the paths of `show -json` output where the
// canary appears in a value its sensitive_values sibling does not mark.
func canaryOutsideSensitive(doc any, canary string) []string {
	var leaks []string
	var walk func(v, sensitive any, path string)
	walk = func(v, sensitive any, path string) {
		if s, ok := sensitive.(bool); ok && s {
			return
		}
		switch x := v.(type) {
		case string:
			if strings.Contains(x, canary) {
				leaks = append(leaks, path)
			}
		case []any:
			sl, _ := sensitive.([]any)
			for i, e := range x {
				var se any
				if i < len(sl) {
					se = sl[i]
				}
				walk(e, se, fmt.Sprintf("%s[%d]", path, i))
			}
		case map[string]any:
			sm, _ := sensitive.(map[string]any)
			for k, e := range x {
				if k == "sensitive_values" {
					continue
				}
				se := sm[k]
				if k == "values" {
					se = x["sensitive_values"]
				}
				walk(e, se, path+"."+k)
			}
		}
	}
	walk(doc, nil, "")
	return leaks
}
