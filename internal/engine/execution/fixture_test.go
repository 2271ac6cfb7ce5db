package execution

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer/mock"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine/job"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine/phase"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine/snapshot"
)

var fastBackoff = phase.Backoff{Base: time.Millisecond, Cap: 5 * time.Millisecond, MaxRetries: 5}

type testEnv struct {
	mock *mock.Deployer
	reg  *deployer.Registry
}

func newEnv() *testEnv {
	m := mock.New()
	reg := deployer.NewRegistry()
	reg.Register(mock.Type, m)
	return &testEnv{mock: m, reg: reg}
}

func (e *testEnv) job(ctx context.Context, parallelism int) *job.Job {
	return job.New(ctx, fmt.Sprintf("job-%d", time.Now().UnixNano()), e.reg, parallelism, fastBackoff, 50*time.Millisecond, nil)
}

// item is a mock deploy item template; cfg is the mock config.
func item(name string, cfg map[string]any, dependsOn ...string) api.DeployItemTemplate {
	raw, _ := json.Marshal(cfg)
	return api.DeployItemTemplate{Name: name, Type: mock.Type, Config: raw, DependsOn: dependsOn}
}

func spec(items ...api.DeployItemTemplate) Spec { return Spec{Path: "root", Items: items} }

func byName(e *snapshot.Execution) map[string]*snapshot.DeployItem {
	m := map[string]*snapshot.DeployItem{}
	if e != nil {
		for _, it := range e.DeployItems {
			m[it.Name] = it
		}
	}
	return m
}

// spans returns, per item ID, when its apply (or delete) started and ended.
func spans(events []mock.Event, op string) map[string][2]time.Time {
	s := map[string][2]time.Time{}
	for _, ev := range events {
		if ev.Op != op {
			continue
		}
		sp := s[ev.ID]
		if ev.Start {
			sp[0] = ev.At
		} else {
			sp[1] = ev.At
		}
		s[ev.ID] = sp
	}
	return s
}

// assertBefore fails unless every apply/delete of first ended before second started.
func assertBefore(t *testing.T, events []mock.Event, op, first, second string) {
	t.Helper()
	s := spans(events, op)
	a, b := s["root/"+first], s["root/"+second]
	if a[1].IsZero() || b[0].IsZero() {
		t.Fatalf("%s of %s or %s missing: %v", op, first, second, s)
	}
	if b[0].Before(a[1]) {
		t.Errorf("%s of %s started before %s of %s ended", op, second, op, first)
	}
}
