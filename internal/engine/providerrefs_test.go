package engine

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer/mock"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/failure"
)

// Issue 32 (b): a Target that takes a kubeconfig of the provider block
// counts only in the job of the installation whose root imports it. A
// blueprint that builds one with another installation's reference (read
// from that installation's inventory) is refused before any deployer
// sees it, in every flow.

// targetRecorder is the mock deployer that remembers every target it was
// handed, by call.
type targetRecorder struct {
	*mock.Deployer
	mu   sync.Mutex
	seen []string // "<op> <item> <target name> <reference>"
}

func (r *targetRecorder) note(op string, item deployer.Item) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if item.Target != nil {
		r.seen = append(r.seen, fmt.Sprintf("%s %s %s %s", op, item.ID, item.Target.Metadata.Name, item.Target.Metadata.Annotations[api.KubeconfigFromProviderAnnotation]))
	}
	for name, t := range item.Targets {
		r.seen = append(r.seen, fmt.Sprintf("%s %s named:%s %s", op, item.ID, name, t.Metadata.Annotations[api.KubeconfigFromProviderAnnotation]))
	}
}

func (r *targetRecorder) Apply(ctx context.Context, item deployer.Item) (deployer.Result, error) {
	r.note("apply", item)
	return r.Deployer.Apply(ctx, item)
}

func (r *targetRecorder) Delete(ctx context.Context, item deployer.Item, opts deployer.DeleteOptions) error {
	r.note("delete", item)
	return r.Deployer.Delete(ctx, item, opts)
}

func (r *targetRecorder) Drift(ctx context.Context, item deployer.Item) (deployer.DriftReport, error) {
	r.note("drift", item)
	return r.Deployer.Drift(ctx, item)
}

func (r *targetRecorder) calls() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return strings.Join(r.seen, "\n")
}

// recordsReason says whether an installation, execution or item of snap
// failed with reason.
func recordsReason(snap *Snapshot, reason string) bool {
	for _, in := range snap.Installations() {
		if in.LastError != nil && in.LastError.Reason == reason {
			return true
		}
		if in.Execution == nil {
			continue
		}
		if in.Execution.LastError != nil && in.Execution.LastError.Reason == reason {
			return true
		}
		for _, it := range in.Execution.DeployItems {
			if it.LastError != nil && it.LastError.Reason == reason {
				return true
			}
		}
	}
	return false
}

func newRecordingEngine() (*Engine, *targetRecorder) {
	e, m, _ := newEngine()
	rec := &targetRecorder{Deployer: m}
	reg := deployer.NewRegistry()
	reg.Register(mock.Type, rec)
	e.Deployers = reg
	return e, rec
}

// providerTarget is a Target as provider_targets builds it: a name and a
// reference, no kubeconfig.
func providerTarget(name, ref string) api.Target {
	t := api.NewTarget(name, "", api.KubernetesClusterTargetType, nil)
	t.Metadata.Annotations = map[string]string{api.KubeconfigFromProviderAnnotation: ref}
	return t
}

// forger exports a Target named "prod" (the parent scope names it) with
// the reference ref, as a blueprint that read it from an inventory would.
func forger(ref string) string {
	return `apiVersion: landscaper.gardener.cloud/v1alpha1
kind: Blueprint
exports:
- name: made
  targetType: landscaper.gardener.cloud/kubernetes-cluster
exportExecutions:
- name: exp
  type: GoTemplate
  template: |
    exports:
      made:
        type: landscaper.gardener.cloud/kubernetes-cluster
        annotations: {"` + api.KubeconfigFromProviderAnnotation + `": "` + ref + `"}
`
}

// borrowingRoot imports the dev cluster, has a subinstallation "own" that
// deploys to it and, with forged set, one "user" that deploys to the
// Target the subinstallation "maker" builds with ref.
func borrowingRoot(ref string, forged bool) string {
	subs := subinstallation("own", componentBlueprint(""), "prefix", "ownOut")
	if forged {
		subs += `- apiVersion: landscaper.gardener.cloud/v1alpha1
  kind: InstallationTemplate
  name: maker
  blueprint:
    filesystem:
      blueprint.yaml: ` + fmt.Sprintf("%q", forger(ref)) + `
  exports:
    targets: [{name: made, target: prod}]
- apiVersion: landscaper.gardener.cloud/v1alpha1
  kind: InstallationTemplate
  name: user
  blueprint:
    filesystem:
      blueprint.yaml: ` + fmt.Sprintf("%q", componentBlueprint("")) + `
  imports:
    data: [{name: in, dataRef: prefix}]
    targets: [{name: cluster, target: prod}]
`
	}
	return `apiVersion: landscaper.gardener.cloud/v1alpha1
kind: Blueprint
imports:
- name: cluster
  targetType: landscaper.gardener.cloud/kubernetes-cluster
- name: prefix
  schema: {type: string}
subinstallations:
` + subs
}

func borrowingSpec(t *testing.T, ref string, forged bool) RootSpec {
	spec := rootSpec(t, borrowingRoot(ref, forged))
	spec.Imports.Targets = map[string]api.Target{"cluster": providerTarget("dev", "ref-dev")}
	return spec
}

func TestApply_RefusesAProviderTargetItsRootDoesNotImport(t *testing.T) {
	e, rec := newRecordingEngine()
	snap, err := e.Apply(context.Background(), borrowingSpec(t, "ref-prod", true), nil)
	if err == nil || !recordsReason(snap, "UntrustedTarget") || !strings.Contains(err.Error(), `target "prod"`) {
		t.Fatalf("want UntrustedTarget naming prod, got %v", err)
	}
	if strings.Contains(err.Error(), "ref-prod") {
		t.Errorf("the error shows the reference: %v", err)
	}
	if got := rec.calls(); strings.Contains(got, "prod") {
		t.Errorf("a deployer was handed the forged target:\n%s", got)
	}
	// The root's own target still works, through a subinstallation.
	if got := rec.calls(); !strings.Contains(got, "apply root/own/app dev ref-dev") {
		t.Errorf("the root's own target was not applied to:\n%s", got)
	}
	for _, it := range snap.DeployItems() {
		if it.AppliedTarget != nil && it.AppliedTarget.Metadata.Name == "prod" {
			t.Errorf("%s records the refused target as applied", it.ID)
		}
	}
	// Its destroy goes through: the refused item deployed nothing.
	if _, err := e.Delete(context.Background(), snap, DeleteOptions{}); err != nil {
		t.Fatalf("delete after the refusal: %v", err)
	}
	if got := rec.calls(); strings.Contains(got, "delete root/user/app prod") {
		t.Errorf("the delete contacted the forged target:\n%s", got)
	}
}

func TestApply_RootsOwnProviderTargetWorksEverywhere(t *testing.T) {
	// The same reference as the root's import, under the root's name: a
	// subinstallation that re-exports the root's target is no borrower.
	e, rec := newRecordingEngine()
	spec := borrowingSpec(t, "ref-dev", true)
	spec.Blueprint = loadBlueprint(t, strings.ReplaceAll(borrowingRoot("ref-dev", true), "target: prod", "target: dev"))
	if _, err := e.Apply(context.Background(), spec, nil); err != nil {
		t.Fatal(err)
	}
	got := rec.calls()
	for _, want := range []string{"apply root/own/app dev ref-dev", "apply root/user/app dev ref-dev"} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in:\n%s", want, got)
		}
	}
}

// planted is a snapshot of a good apply in which one item's applied
// target became the prod Target with another installation's reference (a
// record written before the fix, or planted and imported).
func planted(t *testing.T, e *Engine) *Snapshot {
	t.Helper()
	snap, err := e.Apply(context.Background(), borrowingSpec(t, "", false), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, it := range snap.DeployItems() {
		if it.ID == "root/own/app" {
			forged := providerTarget("prod", "ref-prod")
			it.AppliedTarget = &forged
			return snap
		}
	}
	t.Fatal("no item root/own/app")
	return nil
}

func TestDelete_RefusesAnAppliedProviderTargetTheRootDoesNotImport(t *testing.T) {
	e, rec := newRecordingEngine()
	snap := planted(t, e)
	left, err := e.Delete(context.Background(), snap, DeleteOptions{})
	if err == nil || !recordsReason(left, "UntrustedTarget") {
		t.Fatalf("want UntrustedTarget, got %v", err)
	}
	if got := rec.calls(); strings.Contains(got, "delete root/own/app prod") {
		t.Errorf("the delete was handed the forged target:\n%s", got)
	}
	if left.Empty() {
		t.Error("the refused item was forgotten; it must stay for the user to settle")
	}
}

func TestDrift_RefusesAnAppliedProviderTargetTheRootDoesNotImport(t *testing.T) {
	e, rec := newRecordingEngine()
	snap := planted(t, e)
	_, err := e.Drift(context.Background(), snap, nil, nil)
	if err == nil || failure.Reason(err) != "UntrustedTarget" || !strings.Contains(err.Error(), "root/own/app") {
		t.Fatalf("want UntrustedTarget for root/own/app, got %v", err)
	}
	if got := rec.calls(); strings.Contains(got, "drift root/own/app") {
		t.Errorf("the drift check was handed the forged target:\n%s", got)
	}
}

func TestRecordedPreviewItems_LeaveOutAProviderTargetTheRootDoesNotImport(t *testing.T) {
	e, _ := newRecordingEngine()
	snap := planted(t, e)
	for _, req := range RecordedPreviewItems(snap, nil, nil) {
		switch {
		case req.Item.ID == "root/own/app" && req.Item.Target != nil:
			t.Errorf("the preview of %s was handed %q", req.Item.ID, req.Item.Target.Metadata.Name)
		case req.Item.ID != "root/own/app" && req.Item.Target == nil:
			t.Errorf("%s lost its own target", req.Item.ID)
		}
	}
}

func TestPreviewItems_LeaveOutAProviderTargetTheRootDoesNotImport(t *testing.T) {
	e, _ := newRecordingEngine()
	spec := borrowingSpec(t, "ref-prod", true)
	spec.StandIns = map[string]StandIn{"root/maker": {Targets: map[string]api.Target{"made": providerTarget("", "ref-prod")}}}
	tree, err := e.Render(context.Background(), spec, nil)
	if err == nil || failure.Reason(err) != "UntrustedTarget" {
		t.Errorf("want the plan to refuse the forged target, got %v", err)
	}
	if tree == nil {
		t.Fatal("no tree")
	}
	var seen int
	for _, req := range PreviewItems(tree, nil) {
		seen++
		switch {
		case req.Item.ID == "root/user/app" && req.Item.Target != nil:
			t.Errorf("the preview of %s was handed %q", req.Item.ID, req.Item.Target.Metadata.Name)
		case req.Item.ID == "root/own/app" && req.Item.Target == nil:
			t.Errorf("%s lost its own target", req.Item.ID)
		}
	}
	if seen < 2 {
		t.Errorf("want the items of own and user in the preview, got %d", seen)
	}
}

func TestReplay_UsesTheRootsProviderTargetAndRefusesOthers(t *testing.T) {
	e, rec := newRecordingEngine()
	good, err := e.Apply(context.Background(), borrowingSpec(t, "", false), nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.Replay(context.Background(), good); err != nil {
		t.Fatalf("replay with the root's own target: %v", err)
	}
	if n := strings.Count(rec.calls(), "apply root/own/app dev ref-dev"); n != 2 {
		t.Errorf("want the apply and the replay on the root's target, got %d:\n%s", n, rec.calls())
	}
	// A subinstallation whose recorded import is a Target with another
	// installation's reference.
	forged := good.Clone()
	for _, in := range forged.Installations() {
		if in.Path == "root/own" {
			in.Targets.Single["cluster"] = providerTarget("prod", "ref-prod")
		}
	}
	replayed, err := e.Replay(context.Background(), forged)
	if strings.Contains(rec.calls(), "prod") {
		t.Errorf("the replay was handed the forged target:\n%s", rec.calls())
	}
	if err == nil || !recordsReason(replayed, "UntrustedTarget") {
		t.Fatalf("want UntrustedTarget, got %v", err)
	}
}
