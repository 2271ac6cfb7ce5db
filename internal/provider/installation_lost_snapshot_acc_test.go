package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// bigInteger is 2^53 + 1, the smallest integer a float64 rounds (to ...992).
const bigInteger = "9007199254740993"

// bigNumberInstallation deploys a suspended CronJob whose
// startingDeadlineSeconds (an int64 of the API) is the import id, exports
// that field back from the cluster and exports it again through a Spiff
// export execution, so id passes through a GoTemplate deploy execution,
// the deploy item config, the API server, a deploy item export, Spiff,
// the installation's exports, private state and state.
func (e *accEnv) bigNumberInstallation() string {
	cronJob := fmt.Sprintf(`apiVersion: batch/v1
kind: CronJob
metadata: {name: big, namespace: %s}
spec:
  schedule: "0 0 1 1 *"
  suspend: true
  startingDeadlineSeconds: {{ .imports.id }}
  jobTemplate:
    spec:
      template:
        spec:
          restartPolicy: OnFailure
          containers: [{name: c, image: registry.k8s.io/pause:3.10}]
`, e.namespace)
	// A field of the item's config, after its manifests.
	exports := fmt.Sprintf(`exports:
  exports:
  - key: deadline
    jsonPath: .spec.startingDeadlineSeconds
    fromResource: {apiVersion: batch/v1, kind: CronJob, name: big, namespace: %s}`, e.namespace)
	blueprint := clusterBlueprint(`- name: id
  schema: {type: integer}
`, manifestItem("cron", "", cronJob)+indentLines(exports, "    "), `exports:
- name: id
  schema: {type: integer}
- name: doubled
  schema: {type: array, items: {type: integer}}
exportExecutions:
- name: exports
  type: Spiff
  template:
    exports:
      id: (( values.deployitems.cron.deadline ))
      doubled: (( [ values.deployitems.cron.deadline, imports.id ] ))
`)
	return e.targetHCL + fmt.Sprintf(`
resource "landscaper_installation" "big" {
  name      = "big"
  namespace = %[1]q
  blueprint = { inline = { "blueprint.yaml" = %[2]q } }
  imports = {
    targets = { cluster = landscaper_target.cluster.target }
    data    = { id = %[3]s }
  }
}

output "id" { value = landscaper_installation.big.exports.id }
output "doubled" { value = landscaper_installation.big.exports.doubled }
`, e.namespace, blueprint, bigInteger)
}

// cronJobDeadline is the big CronJob's startingDeadlineSeconds, "" when
// the CronJob does not exist.
func (e *accEnv) cronJobDeadline() string {
	e.t.Helper()
	cj, err := e.kube.BatchV1().CronJobs(e.namespace).Get(context.Background(), "big", metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		return ""
	}
	if err != nil {
		e.t.Fatal(err)
	}
	if cj.Spec.StartingDeadlineSeconds == nil {
		return "<unset>"
	}
	return fmt.Sprint(*cj.Spec.StartingDeadlineSeconds)
}

// editState rewrites the workspace's local state file with edit applied to
// its decoded JSON, and a new serial; it returns the state as it was.
func (w *cliWorkspace) editState(edit func(state map[string]any)) []byte {
	w.t.Helper()
	file := filepath.Join(w.dir, "terraform.tfstate")
	before, err := os.ReadFile(file)
	if err != nil {
		w.t.Fatal(err)
	}
	state := map[string]any{}
	dec := json.NewDecoder(strings.NewReader(string(before)))
	dec.UseNumber() // the state's own numbers must survive the edit
	if err := dec.Decode(&state); err != nil {
		w.t.Fatal(err)
	}
	edit(state)
	serial, _ := state["serial"].(json.Number).Int64()
	state["serial"] = serial + 1
	after, err := json.MarshalIndent(state, "", "  ")
	if err != nil {
		w.t.Fatal(err)
	}
	if err := os.WriteFile(file, after, 0o600); err != nil {
		w.t.Fatal(err)
	}
	return before
}

// Issue 10 defect 10 through the real CLI. (1) Integers above 2^53 keep
// every digit from the configuration through a GoTemplate deploy
// execution, the deployed object, a deploy item export, a Spiff export
// execution, the exports, state and private state; the next plan is
// empty. (2) A destroy whose state lost its private data (the engine
// snapshot) while deploy_items lists items fails, naming them, and
// deletes nothing; with the private data restored, destroy removes all.
func TestAccInstallation_lostSnapshotAndBigIntegers(t *testing.T) {
	requireAcc(t)
	e := newAccEnv(t)
	w := newCLIWorkspace(t, e.bigNumberInstallation())
	w.mustRun("apply", "-auto-approve", "-input=false")

	if got := e.cronJobDeadline(); got != bigInteger {
		t.Errorf("deployed startingDeadlineSeconds = %s, want %s", got, bigInteger)
	}
	if got := strings.TrimSpace(w.mustRun("output", "-json", "id")); got != bigInteger {
		t.Errorf("export id = %s, want %s", got, bigInteger)
	}
	if got := strings.Join(strings.Fields(w.mustRun("output", "-json", "doubled")), ""); got != "["+bigInteger+","+bigInteger+"]" {
		t.Errorf("export doubled = %s, want both %s", got, bigInteger)
	}
	if out, err := w.run("plan", "-detailed-exitcode", "-input=false"); err != nil {
		t.Errorf("the plan after the apply is not empty (%v):\n%s", err, out)
	}

	var dropped bool
	saved := w.editState(func(state map[string]any) {
		for _, r := range state["resources"].([]any) {
			r := r.(map[string]any)
			if r["type"] != "landscaper_installation" {
				continue
			}
			for _, inst := range r["instances"].([]any) {
				inst := inst.(map[string]any)
				if !strings.Contains(fmt.Sprint(inst["attributes"]), bigInteger) {
					t.Errorf("the state's attributes do not hold %s: %v", bigInteger, inst["attributes"])
				}
				if _, ok := inst["private"]; ok {
					delete(inst, "private")
					dropped = true
				}
			}
		}
	})
	if !dropped {
		t.Fatal("the installation's state had no private data to drop")
	}
	out, err := w.run("destroy", "-auto-approve", "-input=false")
	if err == nil {
		t.Fatalf("destroy without the engine snapshot succeeded:\n%s", out)
	}
	if !wrapped("engine snapshot of installation").MatchString(out) || !strings.Contains(out, "cron") {
		t.Errorf("destroy does not say the snapshot is missing and which items it concerns:\n%s", out)
	}
	if got := e.cronJobDeadline(); got != bigInteger {
		t.Fatalf("the failed destroy changed the CronJob: startingDeadlineSeconds = %q", got)
	}

	// The state with its private data back (as from a backup), with a
	// serial above the current one.
	w.editState(func(state map[string]any) {
		old := map[string]any{}
		dec := json.NewDecoder(strings.NewReader(string(saved)))
		dec.UseNumber()
		if err := dec.Decode(&old); err != nil {
			t.Fatal(err)
		}
		state["resources"] = old["resources"]
	})
	w.mustRun("destroy", "-auto-approve", "-input=false")
	if got := e.cronJobDeadline(); got != "" {
		t.Errorf("destroy left the CronJob (startingDeadlineSeconds %s)", got)
	}
}
