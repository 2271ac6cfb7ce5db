package engine

import (
	"context"
	"sync"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	dynamicfake "k8s.io/client-go/dynamic/fake"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer/external"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/failure"
)

const handoffType = "example.com/handoff"

// inCluster plays a deployer in a cluster on a fake API server: it picks
// every new job up pickupAfter after it first saw it (never when
// negative) and finishes it work after the pickup.
type inCluster struct {
	client            *dynamicfake.FakeDynamicClient
	pickupAfter, work time.Duration
}

func (c *inCluster) run(ctx context.Context, t *testing.T) {
	res := c.client.Resource(external.DeployItems).Namespace("default")
	seen, picked := map[string]time.Time{}, map[string]time.Time{}
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		list, err := res.List(ctx, metav1.ListOptions{})
		if err != nil {
			continue
		}
		for i := range list.Items {
			obj := &list.Items[i]
			id, _, _ := unstructured.NestedString(obj.Object, "status", "jobID")
			finished, _, _ := unstructured.NestedString(obj.Object, "status", "jobIDFinished")
			if id == "" || id == finished {
				continue
			}
			now := time.Now()
			if _, ok := seen[id]; !ok {
				seen[id] = now
			}
			switch at, ok := picked[id]; {
			case !ok && c.pickupAfter >= 0 && now.Sub(seen[id]) >= c.pickupAfter:
				picked[id] = now
				_ = unstructured.SetNestedField(obj.Object, now.UTC().Format(time.RFC3339), "status", "transitionTimes", "initTime")
				_ = unstructured.SetNestedField(obj.Object, "Init", "status", "phase")
			case ok && now.Sub(at) >= c.work:
				_ = unstructured.SetNestedField(obj.Object, "Succeeded", "status", "phase")
				_ = unstructured.SetNestedField(obj.Object, id, "status", "jobIDFinished")
			default:
				continue
			}
			if _, err := res.UpdateStatus(ctx, obj, metav1.UpdateOptions{}); err != nil && ctx.Err() == nil {
				t.Errorf("the deployer's status write: %v", err)
			}
		}
	}
}

// handoffEngine is an engine whose items of handoffType go to an
// external deployer on a fake API server, where c plays the deployer.
func handoffEngine(t *testing.T, c *inCluster, pickupTimeout time.Duration) *Engine {
	t.Helper()
	c.client = dynamicfake.NewSimpleDynamicClientWithCustomListKinds(runtime.NewScheme(), map[schema.GroupVersionResource]string{
		external.DeployItems: "DeployItemList", external.Contexts: "ContextList", external.Targets: "TargetList",
		{Version: "v1", Resource: "secrets"}: "SecretList",
	})
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); c.run(ctx, t) }()
	t.Cleanup(func() { cancel(); wg.Wait() })
	e, _, _ := newEngine()
	e.Deployers.Register(handoffType, external.New(external.Options{Client: c.client}))
	e.PickupTimeout, e.AbortTimeout = pickupTimeout, 2*time.Second
	return e
}

func handoffSpec(t *testing.T, timeout string) RootSpec {
	item := "- {name: handed, type: " + handoffType + ", timeout: " + timeout +
		", config: {apiVersion: example.com/v1, kind: ProviderConfiguration}}"
	return RootSpec{Name: "root", Blueprint: loadBlueprint(t, itemsBlueprint(item))}
}

// An item no deployer picks up fails as a pickup timeout, after the
// pickup timeout, also when its own timeout is shorter: its progressing
// timeout starts only at a pickup (seed 003, the deployer contract).
func TestApply_HandedOffItemNobodyPicksUpFailsAsPickupTimeout(t *testing.T) {
	const pickup = 800 * time.Millisecond
	e := handoffEngine(t, &inCluster{pickupAfter: -1}, pickup)
	start := time.Now()
	snap, err := e.Apply(context.Background(), handoffSpec(t, "200ms"), nil)
	if err == nil {
		t.Fatal("Apply succeeded without a deployer")
	}
	it := snap.DeployItems()[0]
	if it.Phase != api.DeployItemPhaseFailed || it.LastError == nil || it.LastError.Reason != failure.ReasonPickupTimeout {
		t.Fatalf("item %s %+v, want Failed with reason %s", it.Phase, it.LastError, failure.ReasonPickupTimeout)
	}
	if took := time.Since(start); took < pickup {
		t.Errorf("the job ended after %s, before the pickup timeout of %s", took, pickup)
	}
}

// An item picked up late gets its whole progressing window from the
// pickup: it finishes after its timeout counted from the call's start,
// within it counted from the pickup, and succeeds.
func TestApply_HandedOffItemPickedUpLateGetsItsWholeTimeout(t *testing.T) {
	e := handoffEngine(t, &inCluster{pickupAfter: 900 * time.Millisecond, work: 600 * time.Millisecond}, 10*time.Second)
	start := time.Now()
	snap, err := e.Apply(context.Background(), handoffSpec(t, "1s"), nil)
	if err != nil {
		t.Fatalf("Apply: %v", err)
	}
	if it := snap.DeployItems()[0]; it.Phase != api.DeployItemPhaseSucceeded {
		t.Fatalf("item %s %+v, want Succeeded", it.Phase, it.LastError)
	}
	if took := time.Since(start); took < time.Second {
		t.Errorf("the job ended after %s: the test did not outlast the item's timeout from the call's start", took)
	}
}
