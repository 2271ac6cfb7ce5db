package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"syscall"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/watch"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/compress"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/inventory"
)

// splitInstallation renders n mock deploy items that deploy to
// the test cluster, so the cluster holds their inventory but no object
// each: what is tested is the record, not 20,000 API objects. Each item's
// provider status holds three digests of its index and rev (as a real
// item holds UIDs), so that the record is larger than one Secret holds
// even compressed.
func (e *accEnv) splitInstallation(n, rev int) string {
	blueprint := fmt.Sprintf(`apiVersion: landscaper.gardener.cloud/v1alpha1
kind: Blueprint
imports:
- name: cluster
  targetType: landscaper.gardener.cloud/kubernetes-cluster
deployExecutions:
- name: main
  type: GoTemplate
  template: |
    deployItems:
    {{- range $i := until %d }}
    - name: m-{{ $i }}
      type: landscaper.gardener.cloud/mock
      target: {import: cluster}
      config:
        providerStatus: {a: "{{ printf "a%%d-%d" $i | sha256sum }}", b: "{{ printf "b%%d-%d" $i | sha256sum }}", c: "{{ printf "c%%d-%d" $i | sha256sum }}"}
    {{- end }}
`, n, rev, rev, rev)
	return e.targetHCL + fmt.Sprintf(`
resource "landscaper_installation" "split" {
  name      = "split"
  namespace = %q
  blueprint = { inline = { "blueprint.yaml" = %q } }
  imports   = { targets = { cluster = landscaper_target.cluster.target } }
}
`, e.namespace, blueprint)
}

// splitRecord is the installation's record on the cluster: its head, the
// names of the part Secrets that exist, and the data bytes of the largest
// Secret and of all parts together.
type splitRecord struct {
	head              inventory.Record
	parts             map[string]bool
	largest, partData int
}

func (e *accEnv) splitRecord() splitRecord {
	e.t.Helper()
	parent := e.inventoryParent("split")
	if parent == nil {
		e.t.Fatal("no inventory parent for installation split")
	}
	var out splitRecord
	raw, err := compress.Gunzip(parent.Data["record"], 64<<20)
	if err == nil {
		err = json.Unmarshal(raw, &out.head)
	}
	if err != nil {
		e.t.Fatal(err)
	}
	out.largest = len(parent.Data["record"])
	list, err := e.kube.CoreV1().Secrets(parent.Namespace).List(context.Background(), metav1.ListOptions{LabelSelector: inventory.PartOfLabel + "=" + parent.Name})
	if err != nil {
		e.t.Fatal(err)
	}
	out.parts = map[string]bool{}
	for _, s := range list.Items {
		out.parts[s.Name] = true
		out.largest = max(out.largest, len(s.Data["part"]))
		out.partData += len(s.Data["part"])
	}
	return out
}

// complete fails the test unless every part the head names exists; it
// returns how many parts exist that the head does not name.
func (r splitRecord) complete(t *testing.T, when string) (stale int) {
	t.Helper()
	named := append(r.head.Parts, r.head.KeptParts...)
	for _, ref := range named {
		if !r.parts[ref.Name] {
			t.Fatalf("%s: the record's part %s is missing", when, ref.Name)
		}
	}
	return len(r.parts) - len(named)
}

// killAtPart starts an apply and kills the CLI and its provider with
// SIGKILL once the apply wrote a part of the record, as a crash would.
func (e *accEnv) killAtPart(w *cliWorkspace, parent *corev1.Secret) {
	e.t.Helper()
	selector := inventory.PartOfLabel + "=" + parent.Name
	secrets := e.kube.CoreV1().Secrets(parent.Namespace)
	list, err := secrets.List(context.Background(), metav1.ListOptions{LabelSelector: selector})
	if err != nil {
		e.t.Fatal(err)
	}
	// From the list's version on: only parts written from now on.
	watcher, err := secrets.Watch(context.Background(), metav1.ListOptions{LabelSelector: selector, ResourceVersion: list.ResourceVersion})
	if err != nil {
		e.t.Fatal(err)
	}
	defer watcher.Stop()
	cmd, wait := w.start("apply", "-auto-approve", "-input=false")
	timeout := time.After(5 * time.Minute)
	for added := false; !added; {
		select {
		case ev := <-watcher.ResultChan():
			_, added = ev.Object.(*corev1.Secret)
			added = added && ev.Type == watch.Added
		case <-timeout:
			e.t.Fatal("the apply wrote no part of the record in 5 minutes")
		}
	}
	if err := syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL); err != nil {
		_ = cmd.Process.Kill()
	}
	if out, err := wait(); err == nil {
		e.t.Fatalf("the killed apply succeeded:\n%s", out)
	}
}

// timedRun runs the CLI to completion within 20 minutes (an installation
// of 20,000 items on a loaded machine takes minutes), fails the test
// unless it succeeds, and logs how long it took.
func timedRun(w *cliWorkspace, what string, args ...string) string {
	w.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Minute)
	defer cancel()
	start := time.Now()
	out, err := w.command(ctx, args...).CombinedOutput()
	if err != nil {
		w.t.Fatalf("%s: %v\n%s", what, err, tail(string(out)))
	}
	w.t.Logf("%s: %s", what, time.Since(start).Round(time.Millisecond))
	return string(out)
}

// An installation of 20,000 items applies, its record split over several
// Secrets none of which is near the API server's limit (together they
// hold more than one Secret may); a plan after it is empty; a destroy
// leaves no parent and no part. (Its items are mock items that deploy to
// the cluster, so it costs the CLI's and the engine's work for 20,000
// items and the record's, not 20,000 API objects.)
func TestAccInstallation_inventoryOf20000Items(t *testing.T) {
	requireAcc(t)
	e := newAccEnv(t)
	w := newCLIWorkspace(t, e.splitInstallation(20_000, 1))
	out := timedRun(w, "apply of 20,000 items", "apply", "-auto-approve", "-input=false")
	if path := os.Getenv("LANDSCAPER_TEST_SPLIT_OUTPUT"); path != "" {
		if err := os.WriteFile(path, []byte(out), 0o600); err != nil {
			t.Error(err)
		}
	}
	rec := e.splitRecord()
	if rec.head.Version != 2 || len(rec.head.Parts) < 2 || rec.complete(t, "after the apply") != 0 {
		t.Fatalf("record version %d in %d parts (%d Secrets), want it split", rec.head.Version, len(rec.head.Parts), len(rec.parts))
	}
	if rec.partData <= 1<<20 || rec.largest > 1<<20 {
		t.Fatalf("the parts hold %d bytes, the largest Secret %d: want more than one Secret holds, in Secrets that each hold less", rec.partData, rec.largest)
	}
	t.Logf("record: %d parts of items, %d of what is kept for an import, %d bytes of data, the largest Secret %d",
		len(rec.head.Parts), len(rec.head.KeptParts), rec.partData, rec.largest)
	timedRun(w, "empty plan", "plan", "-detailed-exitcode", "-input=false")
	parent := e.inventoryParent("split")
	timedRun(w, "destroy", "destroy", "-auto-approve", "-input=false")
	e.assertNoRecord(parent)
}

// assertNoRecord fails the test unless the parent and every part of its
// record are gone.
func (e *accEnv) assertNoRecord(parent *corev1.Secret) {
	e.t.Helper()
	if p := e.inventoryParent("split"); p != nil {
		e.t.Fatalf("the destroy left the inventory %s/%s", p.Namespace, p.Name)
	}
	left, err := e.kube.CoreV1().Secrets(parent.Namespace).List(context.Background(), metav1.ListOptions{LabelSelector: inventory.PartOfLabel + "=" + parent.Name})
	if err != nil {
		e.t.Fatal(err)
	}
	if len(left.Items) != 0 {
		e.t.Fatalf("the destroy left %d parts of the record", len(left.Items))
	}
}

// An apply killed while it writes the parts of a split record (3,000
// items) leaves a record whose parts all exist, and parts it does not
// name; the next apply reads it, and deletes those; the plan after it is
// empty.
func TestAccInstallation_inventoryCrashBetweenParts(t *testing.T) {
	requireAcc(t)
	e := newAccEnv(t)
	w := newCLIWorkspace(t, e.splitInstallation(3000, 1))
	timedRun(w, "apply of 3,000 items", "apply", "-auto-approve", "-input=false")
	if rec := e.splitRecord(); len(rec.head.Parts) < 2 {
		t.Fatalf("the record is in %d parts, want it split", len(rec.head.Parts))
	}
	parent := e.inventoryParent("split")
	w.write(e.splitInstallation(3000, 2)) // every item's status changes: every part is written again
	e.killAtPart(w, parent)
	rec := e.splitRecord()
	stale := rec.complete(t, "after the killed apply")
	t.Logf("after the kill: %d parts named, %d others", len(rec.head.Parts)+len(rec.head.KeptParts), stale)
	if stale == 0 {
		t.Fatal("the killed apply left no part the record does not name: it was not killed between parts")
	}
	timedRun(w, "apply after the kill", "apply", "-auto-approve", "-input=false")
	if stale := e.splitRecord().complete(t, "after the apply that repairs"); stale != 0 {
		t.Fatalf("after the apply that followed the kill, %d parts exist that the record does not name", stale)
	}
	timedRun(w, "empty plan", "plan", "-detailed-exitcode", "-input=false")
	timedRun(w, "destroy", "destroy", "-auto-approve", "-input=false")
	e.assertNoRecord(parent)
}

// tail is the end of a CLI's output: a plan of 20,000 items is long.
func tail(out string) string {
	if len(out) > 4000 {
		return "…" + out[len(out)-4000:]
	}
	return out
}
