package provider

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/testsupport/localcluster"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/testsupport/postgres"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/testsupport/tfcli"
)

// remoteStateWorkspace is a CLI workspace whose state lives in a remote
// backend (backend: the body of a `terraform` block), as a team shares it.
func (e *accEnv) remoteStateWorkspace(t *testing.T, backend, config string) *cliWorkspace {
	t.Helper()
	w := newCLIWorkspace(t, "terraform {\n"+backend+"}\n"+config)
	// A backend needs init, and init installs the provider even with
	// dev_overrides in effect: from a local mirror of the built binary.
	w.mustRun("init", "-input=false", "-plugin-dir="+providerMirror(t))
	return w
}

// providerMirror lays the built provider out as a filesystem mirror.
func providerMirror(t *testing.T) string {
	t.Helper()
	providerDir, err := providerBinary()
	if err != nil {
		t.Fatal(err)
	}
	mirror := t.TempDir()
	for _, host := range []string{"registry.terraform.io", "registry.opentofu.org"} {
		dir := filepath.Join(mirror, host, "landscaper-terraform", "landscaper", "0.0.1", runtime.GOOS+"_"+runtime.GOARCH)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(filepath.Join(providerDir, "terraform-provider-landscaper"), filepath.Join(dir, "terraform-provider-landscaper_v0.0.1")); err != nil {
			t.Fatal(err)
		}
	}
	return mirror
}

// heldConfig: a ConfigMap, then a Deployment that becomes ready only once a
// node carries label, which the test sets when it wants the apply to end:
// until then the apply holds the state lock.
func (e *accEnv) heldConfig(label string) string {
	return e.gatedInstallation("shared", "held", "terminationGracePeriodSeconds: 0", fmt.Sprintf(`nodeSelector: {%q: "true"}`, label))
}

// labelNodes sets label=true on every node, so the held Deployment schedules.
func (e *accEnv) labelNodes(label string) {
	e.t.Helper()
	nodes, err := e.kube.CoreV1().Nodes().List(context.Background(), metav1.ListOptions{})
	if err != nil {
		e.t.Fatal(err)
	}
	patch := fmt.Appendf(nil, `{"metadata":{"labels":{%q:"true"}}}`, label)
	for _, n := range nodes.Items {
		if _, err := e.kube.CoreV1().Nodes().Patch(context.Background(), n.Name, types.MergePatchType, patch, metav1.PatchOptions{}); err != nil {
			e.t.Fatal(err)
		}
	}
	e.t.Cleanup(func() {
		remove := fmt.Appendf(nil, `{"metadata":{"labels":{%q:null}}}`, label)
		for _, n := range nodes.Items {
			_, _ = e.kube.CoreV1().Nodes().Patch(context.Background(), n.Name, types.MergePatchType, remove, metav1.PatchOptions{})
		}
	})
}

// The state in the kubernetes backend (Secrets and a Lease for the lock in
// the test's namespace).
func TestAccRemoteState_kubernetesBackend(t *testing.T) {
	requireAcc(t)
	if lacks, why := tfcli.LacksBackend("kubernetes"); lacks {
		t.Skip(why)
	}
	e := newAccEnv(t)
	e.remoteStateRoundTrip(fmt.Sprintf(`
  backend "kubernetes" {
    secret_suffix = "landscaper"
    namespace     = %q
    config_path   = %q
  }
`, e.namespace, localcluster.KubeconfigPath(t)))
}

// The state in the pg backend, on a PostgreSQL server of its own (a table
// in the terraform_remote_state schema, advisory locks).
func TestAccRemoteState_pgBackend(t *testing.T) {
	requireAcc(t)
	if lacks, why := tfcli.LacksBackend("pg"); lacks {
		t.Skip(why)
	}
	e := newAccEnv(t)
	e.remoteStateRoundTrip(fmt.Sprintf(`
  backend "pg" {
    conn_str = %q
  }
`, postgres.Start(t)))
}

// remoteStateRoundTrip: apply, an empty plan from a second checkout of the
// same configuration (the private snapshot of the engine survives the
// round trip through the backend), and destroy. While one apply holds the
// lock, a second one fails on it without touching the cluster, and a third
// waits for it and then has nothing to do.
func (e *accEnv) remoteStateRoundTrip(backend string) {
	t := e.t
	t.Helper()
	label := "landscaper-test/" + uuid.NewString()[:8]
	config := e.heldConfig(label)
	first := e.remoteStateWorkspace(t, backend, config)
	second := e.remoteStateWorkspace(t, backend, config)
	waiter := e.remoteStateWorkspace(t, backend, config)

	cmd, wait := first.start("apply", "-auto-approve", "-input=false")
	defer func() { _ = cmd.Process.Kill() }()
	e.waitForDeployment("held")

	out, err := second.run("apply", "-auto-approve", "-input=false", "-lock-timeout=0s")
	if err == nil || !strings.Contains(out, "Error acquiring the state lock") {
		t.Fatalf("a second apply during the first: err=%v, want the state lock error:\n%s", err, out)
	}
	waiterCmd, waited := waiter.start("apply", "-auto-approve", "-input=false", "-lock-timeout=5m")
	defer func() { _ = waiterCmd.Process.Kill() }()

	e.labelNodes(label)
	if out, err := wait(); err != nil {
		t.Fatalf("first apply: %v\n%s", err, out)
	}
	out, err = waited()
	if err != nil {
		t.Fatalf("the apply waiting for the lock: %v\n%s", err, out)
	}
	if !strings.Contains(out, "No changes.") {
		t.Errorf("the apply that waited for the lock changed something; the first one had deployed it all:\n%s", out)
	}

	// A plan from the other checkout reads the state through the backend.
	out, err = second.run("plan", "-input=false", "-detailed-exitcode")
	if err != nil {
		t.Fatalf("plan after apply is not empty (exit %v):\n%s", err, out)
	}
	if err := e.configMapData("first", map[string]string{"a": "b"})(nil); err != nil {
		t.Fatal(err)
	}

	start := time.Now()
	second.mustRun("destroy", "-auto-approve", "-input=false")
	t.Logf("destroy from the other checkout took %s", time.Since(start))
	if err := e.configMapsGone("first")(nil); err != nil {
		t.Error(err)
	}
	if out := first.mustRun("state", "list"); strings.TrimSpace(out) != "" {
		t.Errorf("state after destroy still lists:\n%s", out)
	}
}
