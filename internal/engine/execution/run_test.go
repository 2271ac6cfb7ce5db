package execution

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/failure"
)

func TestRun_Chain(t *testing.T) {
	// a deploy item is triggered only when all its predecessors are finished
	env := newEnv()
	d := map[string]any{"delay": "5ms"}
	exec, err := Run(env.job(context.Background(), 10), spec(item("c", d, "b"), item("a", d), item("b", d, "a")), nil)
	if err != nil {
		t.Fatal(err)
	}
	if exec.Phase != api.ExecutionPhaseSucceeded || exec.JobID != exec.JobIDFinished {
		t.Fatalf("execution %s, finished %v", exec.Phase, exec.JobID == exec.JobIDFinished)
	}
	ev := env.mock.Events()
	assertBefore(t, ev, "apply", "a", "b")
	assertBefore(t, ev, "apply", "b", "c")
	for _, it := range exec.DeployItems {
		if it.Phase != api.DeployItemPhaseSucceeded || it.JobIDFinished != exec.JobID || len(it.ProviderStatus) == 0 {
			t.Errorf("item %s: phase %s jobIDFinished %q providerStatus %s", it.Name, it.Phase, it.JobIDFinished, it.ProviderStatus)
		}
	}
}

func TestRun_Diamond(t *testing.T) {
	// all items with no pending predecessors are triggered together; a join waits for both branches
	env := newEnv()
	d := map[string]any{"delay": "20ms"}
	_, err := Run(env.job(context.Background(), 10), spec(item("a", d), item("b", d, "a"), item("c", d, "a"), item("d", d, "b", "c")), nil)
	if err != nil {
		t.Fatal(err)
	}
	ev := env.mock.Events()
	assertBefore(t, ev, "apply", "a", "b")
	assertBefore(t, ev, "apply", "a", "c")
	assertBefore(t, ev, "apply", "b", "d")
	assertBefore(t, ev, "apply", "c", "d")
	if got := env.mock.MaxConcurrentApplies(); got != 2 {
		t.Errorf("b and c should run concurrently: max concurrency %d", got)
	}
}

func TestRun_FanOutBoundedByParallelism(t *testing.T) {
	// independent items run concurrently, up to the configured parallelism
	env := newEnv()
	var items []api.DeployItemTemplate
	for i := 0; i < 60; i++ {
		items = append(items, item(fmt.Sprintf("i%02d", i), map[string]any{"delay": "10ms"}))
	}
	exec, err := Run(env.job(context.Background(), 7), spec(items...), nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := env.mock.MaxConcurrentApplies(); got != 7 {
		t.Errorf("max concurrency %d, want 7", got)
	}
	if n := len(env.mock.Deployed()); n != 60 || len(exec.DeployItems) != 60 {
		t.Errorf("deployed %d, recorded %d", n, len(exec.DeployItems))
	}
}

func TestRun_FailureInTheMiddle(t *testing.T) {
	// once an item failed nothing new is triggered; running items finish; then the execution is Failed
	env := newEnv()
	exec, err := Run(env.job(context.Background(), 10), spec(
		item("a", nil),
		item("b", map[string]any{"phase": "Failed"}, "a"),
		item("c", nil, "b"),
		item("slow", map[string]any{"delay": "100ms"}),
	), nil)
	if err == nil || !strings.Contains(err.Error(), "deploy item root/b failed") || !strings.Contains(err.Error(), "phase Progressing") {
		t.Fatalf("error %v should name the failed item and the phase", err)
	}
	items := byName(exec)
	if exec.Phase != api.ExecutionPhaseFailed || exec.JobIDFinished != exec.JobID {
		t.Errorf("execution %s finished=%v", exec.Phase, exec.JobIDFinished == exec.JobID)
	}
	if items["slow"].Phase != api.DeployItemPhaseSucceeded {
		t.Errorf("running item slow should have finished: %s", items["slow"].Phase)
	}
	if items["c"].JobID == exec.JobID {
		t.Errorf("c must not be triggered after b failed")
	}
	if items["b"].LastError == nil || items["b"].LastError.Reason != "MockFailed" {
		t.Errorf("b lastError %+v", items["b"].LastError)
	}
}

func TestRun_TransientErrorsRecover(t *testing.T) {
	// normal errors repeat the phase with growing intervals until it succeeds
	env := newEnv()
	exec, err := Run(env.job(context.Background(), 1), spec(item("a", map[string]any{"transientFailures": 3})), nil)
	if err != nil {
		t.Fatal(err)
	}
	if byName(exec)["a"].Phase != api.DeployItemPhaseSucceeded {
		t.Fatalf("phase %s", byName(exec)["a"].Phase)
	}
	if n := len(spans(env.mock.Events(), "apply")); n != 1 {
		t.Fatalf("spans %d", n)
	}
	applies := 0
	for _, ev := range env.mock.Events() {
		if ev.Start {
			applies++
		}
	}
	if applies != 4 {
		t.Errorf("applies %d, want 4 (3 transient failures, 1 success)", applies)
	}
}

func TestRun_TransientErrorsExhausted(t *testing.T) {
	// retries are capped: an item that never heals ends Failed naming the retries
	env := newEnv()
	exec, err := Run(env.job(context.Background(), 1), spec(item("a", map[string]any{"transientFailures": 100})), nil)
	if err == nil || !strings.Contains(err.Error(), "giving up after 5 retries") {
		t.Fatalf("error %v", err)
	}
	if byName(exec)["a"].Phase != api.DeployItemPhaseFailed {
		t.Errorf("phase %s", byName(exec)["a"].Phase)
	}
}

func TestRun_Timeout(t *testing.T) {
	// an item past its timeout is aborted and Failed with a timeout reason
	env := newEnv()
	it := item("a", map[string]any{"delay": "10s"})
	it.Timeout = &api.Duration{Duration: 50 * time.Millisecond}
	start := time.Now()
	exec, err := Run(env.job(context.Background(), 1), spec(it), nil)
	if time.Since(start) > 2*time.Second {
		t.Errorf("took %s", time.Since(start))
	}
	a := byName(exec)["a"]
	if err == nil || a.Phase != api.DeployItemPhaseFailed || a.LastError.Reason != "ProgressingTimeout" {
		t.Fatalf("err %v, item %s %+v", err, a.Phase, a.LastError)
	}
	if len(a.ProviderStatus) == 0 {
		t.Error("what the aborted apply created must stay recorded")
	}
}

func TestRun_UnknownType(t *testing.T) {
	// an unknown deploy item type is a terminal error naming the type
	env := newEnv()
	it := item("a", nil)
	it.Type = "example.com/nope"
	_, err := Run(env.job(context.Background(), 1), spec(it), nil)
	if err == nil || !strings.Contains(err.Error(), `"example.com/nope"`) || !strings.Contains(err.Error(), "root/a") {
		t.Fatalf("error %v", err)
	}
}

func TestRun_OrphansDeletedFirst(t *testing.T) {
	// items no longer in the spec are deleted before new or changed items run
	env := newEnv()
	exec, err := Run(env.job(context.Background(), 5), spec(item("keep", nil), item("old", nil), item("older", nil, "old")), nil)
	if err != nil {
		t.Fatal(err)
	}
	exec, err = Run(env.job(context.Background(), 5), spec(item("keep", map[string]any{"export": map[string]any{"v": 2}}), item("new", nil)), exec)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(env.mock.Deployed(), ","); got != "root/keep,root/new" {
		t.Errorf("deployed %s", got)
	}
	if len(exec.DeployItems) != 2 {
		t.Errorf("items %d", len(exec.DeployItems))
	}
	ev := env.mock.Events()
	s, del := spans(ev, "apply"), spans(ev, "delete")
	if !del["root/older"][1].Before(del["root/old"][0]) {
		t.Error("orphan old must be deleted after older, which depends on it")
	}
	lastApply := s["root/new"][0]
	if !del["root/old"][1].Before(lastApply) {
		t.Error("orphans must be deleted before the new item is applied")
	}
	if byName(exec)["keep"].Exports["v"] != int64(2) {
		t.Errorf("exports %v", byName(exec)["keep"].Exports)
	}
}

func TestRun_UpdateOnChangeOnly(t *testing.T) {
	// an updateOnChangeOnly item is not applied again while its config is unchanged
	env := newEnv()
	it := item("a", nil)
	it.UpdateOnChangeOnly = true
	exec, err := Run(env.job(context.Background(), 1), spec(it), nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Run(env.job(context.Background(), 1), spec(it), exec); err != nil {
		t.Fatal(err)
	}
	if n := len(env.mock.Events()); n != 2 {
		t.Errorf("events %d, want one apply", n)
	}
}

func TestRun_Interrupt(t *testing.T) {
	// an interrupt triggers nothing new, cancels running items, which fail, and every object finishes
	env := newEnv()
	ctx, cancel := context.WithCancel(context.Background())
	j := env.job(ctx, 10)
	time.AfterFunc(30*time.Millisecond, cancel)
	start := time.Now()
	exec, err := Run(j, spec(item("a", nil), item("slow", map[string]any{"delay": "10s"}, "a"), item("next", nil, "slow")), nil)
	if time.Since(start) > 2*time.Second {
		t.Errorf("interrupt took %s", time.Since(start))
	}
	if err == nil || !strings.Contains(err.Error(), "interrupted") {
		t.Fatalf("error %v", err)
	}
	items := byName(exec)
	if items["a"].Phase != api.DeployItemPhaseSucceeded {
		t.Errorf("a %s", items["a"].Phase)
	}
	for _, n := range []string{"slow", "next"} {
		it := items[n]
		if it.Phase != api.DeployItemPhaseFailed || it.LastError == nil || it.LastError.Reason != failure.ReasonInterrupted || it.JobIDFinished != j.ID {
			t.Errorf("%s: %s %+v finished=%v", n, it.Phase, it.LastError, it.JobIDFinished == j.ID)
		}
	}
	if len(items["slow"].ProviderStatus) == 0 {
		t.Error("the interrupted item was created; its provider status must be recorded")
	}
	if exec.JobIDFinished != j.ID || exec.Phase != api.ExecutionPhaseFailed {
		t.Errorf("execution %s finished=%v", exec.Phase, exec.JobIDFinished == j.ID)
	}
}

func TestRun_UnknownTargetImport(t *testing.T) {
	// a deploy item naming a target import the installation lacks fails before any item is deployed
	env := newEnv()
	it := item("b", nil)
	it.Target = &api.TargetSelector{Import: "nope"}
	_, err := Run(env.job(context.Background(), 1), spec(item("a", nil), it), nil)
	if err == nil || !strings.Contains(err.Error(), `deploy item root/b: no target import "nope"`) || len(env.mock.Events()) != 0 {
		t.Fatalf("error %v, calls %d", err, len(env.mock.Events()))
	}
}

func TestRun_TypeChangeReplacesItem(t *testing.T) {
	// an item whose type changed is deleted by its old deployer before the new one applies it afresh
	env := newEnv()
	other := newEnv().mock
	env.reg.Register("example.com/other", other)
	exec, err := Run(env.job(context.Background(), 1), spec(item("a", map[string]any{"providerStatus": map[string]any{"old": true}})), nil)
	if err != nil {
		t.Fatal(err)
	}
	changed := item("a", nil)
	changed.Type = "example.com/other"
	exec, err = Run(env.job(context.Background(), 1), spec(changed), exec)
	if err != nil {
		t.Fatal(err)
	}
	if len(env.mock.Deployed()) != 0 || len(other.Deployed()) != 1 {
		t.Errorf("old deployer still has %v, new has %v", env.mock.Deployed(), other.Deployed())
	}
	if a := byName(exec)["a"]; a.Type != "example.com/other" || strings.Contains(string(a.ProviderStatus), "old") {
		t.Errorf("item %s with provider status %s", a.Type, a.ProviderStatus)
	}
}

// stubborn ignores its context, as a deployer must not.
type stubborn struct{ deployer.Deployer }

func (stubborn) Apply(context.Context, deployer.Item) (deployer.Result, error) {
	time.Sleep(3 * time.Second)
	return deployer.Result{}, nil
}

func TestRun_AbortTimeout(t *testing.T) {
	// a deployer that ignores the timeout is given up after the abort timeout; the item is Failed and Run returns
	env := newEnv()
	env.reg.Register("example.com/stubborn", stubborn{env.mock})
	it := item("a", nil)
	it.Type = "example.com/stubborn"
	it.Timeout = &api.Duration{Duration: 30 * time.Millisecond}
	start := time.Now()
	exec, err := Run(env.job(context.Background(), 1), spec(it), nil)
	if took := time.Since(start); took > 2*time.Second {
		t.Fatalf("took %s", took)
	}
	a := byName(exec)["a"]
	if err == nil || a.Phase != api.DeployItemPhaseFailed || !strings.Contains(a.LastError.Message, "did not return within") {
		t.Fatalf("%v: %s %+v", err, a.Phase, a.LastError)
	}
}
