package mock

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/failure"
)

func item(id, cfg string) deployer.Item {
	return deployer.Item{ID: id, Name: id, Type: Type, Config: json.RawMessage(cfg)}
}

func TestApply(t *testing.T) {
	tests := []struct {
		name      string
		rule      string
		cfg       string
		prior     json.RawMessage
		wantClass failure.Kind
		wantErr   string
		check     func(deployer.Result) bool
	}{
		{"Default", "without config the item succeeds and reports a provider status", `{}`, nil, 0, "",
			func(r deployer.Result) bool { return len(r.ProviderStatus) > 0 }},
		{"Export", "export is returned as the item's exports", `{"export": {"a": 1}}`, nil, 0, "",
			func(r deployer.Result) bool { return r.Exports["a"] == int64(1) }},
		{"ExportExactNumbers", "exported numbers keep their digits: int64, beyond it json.Number, else float64",
			`{"export": {"big": 9007199254740993, "huge": [18446744073709551617], "half": {"h": 0.5}}}`, nil, 0, "",
			func(r deployer.Result) bool {
				b, _ := json.Marshal(r.Exports)
				return r.Exports["big"] == int64(9007199254740993) &&
					string(b) == `{"big":9007199254740993,"half":{"h":0.5},"huge":[18446744073709551617]}`
			}},
		{"ProviderStatus", "providerStatus is returned verbatim", `{"providerStatus": {"x": true}}`, nil, 0, "",
			func(r deployer.Result) bool { return string(r.ProviderStatus) == `{"x": true}` }},
		{"PhaseFailed", "phase Failed is a terminal error that still reports what exists", `{"phase": "Failed"}`, nil, failure.Terminal, "scripted phase Failed",
			func(r deployer.Result) bool { return len(r.ProviderStatus) > 0 }},
		{"InitialPhaseFirstApply", "initialPhase decides the first apply (no provider status yet)", `{"initialPhase": "Failed"}`, nil, failure.Terminal, "scripted phase Failed", nil},
		{"InitialPhaseLaterApply", "later applies end in phase", `{"initialPhase": "Failed"}`, json.RawMessage(`{}`), 0, "", nil},
		{"InvalidPhase", "an unknown phase is a terminal config error", `{"phase": "Weird"}`, nil, failure.Terminal, "is not Succeeded or Failed", nil},
		{"InvalidDelay", "a delay that is no duration is a terminal config error", `{"delay": "soon"}`, nil, failure.Terminal, `delay "soon"`, nil},
		{"InvalidJSON", "a config that is no object is a terminal config error", `[1]`, nil, failure.Terminal, "invalid mock config", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			it := item("a", tt.cfg)
			it.ProviderStatus = tt.prior
			res, err := New().Apply(context.Background(), it)
			if tt.wantErr == "" && err != nil || tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)) {
				t.Fatalf("%s: error %v", tt.rule, err)
			}
			if err != nil && failure.KindOf(err) != tt.wantClass {
				t.Errorf("%s: class %v", tt.rule, failure.KindOf(err))
			}
			if tt.check != nil && !tt.check(res) {
				t.Errorf("%s: result %+v", tt.rule, res)
			}
		})
	}
}

func TestApply_TransientFailures(t *testing.T) {
	// transientFailures: n makes the first n applies of an item fail transiently, then it succeeds
	m := New()
	it := item("a", `{"transientFailures": 2}`)
	for i := 0; i < 2; i++ {
		if _, err := m.Apply(context.Background(), it); err == nil || failure.IsTerminal(err) {
			t.Fatalf("apply %d: %v", i, err)
		}
	}
	if _, err := m.Apply(context.Background(), it); err != nil {
		t.Fatal(err)
	}
}

func TestApply_DelayHonoursContext(t *testing.T) {
	// a cancelled context ends the readiness wait promptly; the created item stays recorded
	m := New()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	start := time.Now()
	res, err := m.Apply(ctx, item("a", `{"delay": "10s"}`))
	if err == nil || time.Since(start) > time.Second || len(res.ProviderStatus) == 0 || len(m.Deployed()) != 1 {
		t.Fatalf("%v after %s, status %s", err, time.Since(start), res.ProviderStatus)
	}
}

func TestDelete(t *testing.T) {
	// delete removes the item; without-uninstall forgets it; scripted failures are transient or terminal
	m := New()
	ctx := context.Background()
	for _, id := range []string{"a", "b", "c", "d"} {
		if _, err := m.Apply(ctx, item(id, `{}`)); err != nil {
			t.Fatal(err)
		}
	}
	if err := m.Delete(ctx, item("a", `{}`), deployer.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := m.Delete(ctx, item("b", `{"deleteFails": true}`), deployer.DeleteOptions{WithoutUninstall: true}); err != nil {
		t.Fatal(err)
	}
	if err := m.Delete(ctx, item("c", `{"deleteFails": true}`), deployer.DeleteOptions{}); !failure.IsTerminal(err) {
		t.Fatalf("deleteFails: %v", err)
	}
	if err := m.Delete(ctx, item("d", `{"deleteTransientFailures": 1}`), deployer.DeleteOptions{}); err == nil || failure.IsTerminal(err) {
		t.Fatalf("deleteTransientFailures: %v", err)
	}
	if err := m.Delete(ctx, item("d", `{"deleteTransientFailures": 1}`), deployer.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(m.Deployed(), ","); got != "b,c" {
		t.Errorf("cluster %s", got)
	}
}

func TestDrift(t *testing.T) {
	// drift reports missing items and items deployed with another config
	m := New()
	ctx := context.Background()
	if _, err := m.Apply(ctx, item("a", `{"export": {"v": 1}}`)); err != nil {
		t.Fatal(err)
	}
	if r, _ := m.Drift(ctx, item("a", `{"export": {"v": 1}}`)); r.Drifted {
		t.Error("unchanged item drifted")
	}
	if r, _ := m.Drift(ctx, item("a", `{"export": {"v": 2}}`)); !r.Drifted {
		t.Error("changed config not reported")
	}
	m.Remove("a")
	if r, _ := m.Drift(ctx, item("a", `{"export": {"v": 1}}`)); !r.Drifted || !strings.Contains(r.Reason, "does not exist") {
		t.Errorf("missing item: %+v", r)
	}
}
