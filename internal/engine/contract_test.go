package engine

import (
	"context"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/failure"
)

// seeing records the Item of every Apply (and Drift) it gets, and fails
// the items whose config says so with the error given.
type seeing struct {
	deployer.Deployer
	mu      sync.Mutex
	items   map[string]deployer.Item
	drifted map[string]deployer.Item
	fail    error
}

func (s *seeing) Drift(ctx context.Context, item deployer.Item) (deployer.DriftReport, error) {
	s.mu.Lock()
	if s.drifted != nil {
		s.drifted[item.Name] = item
	}
	s.mu.Unlock()
	return s.Deployer.Drift(ctx, item)
}

func (s *seeing) Apply(ctx context.Context, item deployer.Item) (deployer.Result, error) {
	s.mu.Lock()
	s.items[item.Name] = item
	s.mu.Unlock()
	if strings.Contains(string(item.Config), "fail") {
		return deployer.Result{}, s.fail
	}
	return s.Deployer.Apply(ctx, item)
}

const seeingType = "example.com/seeing"

// The contract's settings reach every deployer call: the progressing
// default for an item without a timeout (its own timeout otherwise), the
// abort timeout, and the root's Landscaper Context (a job's, so the
// items of subinstallations get it as well).
func TestApply_ContractSettingsReachTheCall(t *testing.T) {
	e, m, _ := newEngine()
	s := &seeing{Deployer: m, items: map[string]deployer.Item{}}
	e.Deployers.Register(seeingType, s)
	e.DefaultTimeout, e.AbortTimeout = 7*time.Minute, 3*time.Second
	items := "- {name: plain, type: " + seeingType + ", config: {}}\n" +
		"- {name: timed, type: " + seeingType + ", timeout: 20s, config: {}}\n" +
		"- {name: unbounded, type: " + seeingType + ", timeout: none, config: {}}"
	spec := RootSpec{Name: "root", Blueprint: loadBlueprint(t, itemsBlueprint(items)),
		Context: map[string]any{"registryPullSecrets": []any{map[string]any{"name": "pull"}}}}
	snap, err := e.Apply(context.Background(), spec, nil)
	if err != nil {
		t.Fatal(err)
	}
	// Drift sees the timeout Apply wrote (an external deployer compares
	// it with the DeployItem's spec.timeout).
	s.drifted = map[string]deployer.Item{}
	if _, err := e.Drift(context.Background(), snap, spec.Blueprint, nil); err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]time.Duration{"plain": 7 * time.Minute, "timed": 20 * time.Second, "unbounded": 0} {
		it := s.items[name]
		if it.Timeouts.Progressing != want || it.Timeouts.Abort != 3*time.Second || !reflect.DeepEqual(it.Context, spec.Context) {
			t.Errorf("item %s: timeout %s (want %s), abort timeout %s, context %v", name, it.Timeouts.Progressing, want, it.Timeouts.Abort, it.Context)
		}
		if got := s.drifted[name].Timeouts.Progressing; got != want {
			t.Errorf("item %s: Drift got timeout %s, Apply %s", name, got, want)
		}
	}
}

// A failed item records Landscaper's error codes and whether a retry can
// help, and the text the user reads says both.
func TestApply_ErrorCodesRecorded(t *testing.T) {
	for _, tc := range []struct {
		name      string
		err       error
		codes     []string
		retryable bool
		says      string
	}{
		{"deployer codes, final", failure.FromLandscaperCodes("DeployerFailed", []string{"ERR_CONFIGURATION_PROBLEM"}, errString("bad image")),
			[]string{"ERR_CONFIGURATION_PROBLEM"}, false, "(ERR_CONFIGURATION_PROBLEM; another apply will fail the same way until the cause is fixed)"},
		{"timeout", failure.Terminalf("PickupTimeout", "nobody came"), []string{failure.CodeTimeout}, false, "(ERR_TIMEOUT; another apply will fail"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e, m, _ := newEngine()
			s := &seeing{Deployer: m, items: map[string]deployer.Item{}, fail: tc.err}
			e.Deployers.Register(seeingType, s)
			spec := RootSpec{Name: "root", Blueprint: loadBlueprint(t, itemsBlueprint("- {name: a, type: "+seeingType+", config: {fail: true}}"))}
			snap, err := e.Apply(context.Background(), spec, nil)
			if err == nil {
				t.Fatal("no error")
			}
			it := snap.DeployItems()[0]
			if it.LastError == nil || !slices.Equal(it.LastError.Codes, tc.codes) || it.LastError.Retryable != tc.retryable ||
				!strings.Contains(it.LastError.Text(), tc.says) {
				t.Fatalf("lastError %+v, text %q", it.LastError, it.LastError.Text())
			}
		})
	}
}

type errString string

func (e errString) Error() string { return string(e) }
