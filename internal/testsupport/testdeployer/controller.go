// Package testdeployer is a deployer of the project's own that keeps
// Landscaper's deployer contract, so the external deployer can be tested
// against a real API server with a real controller on the other side.
// It runs as a process (cmd/testdeployer; tests build and start it with
// Build and Start), handles one deploy item type in one namespace, and
// for each job writes a ConfigMap from its config into the item's target
// cluster and exports values through an export Secret.
//
// Its config (spec.config) is a Config. Modes make it slow, fail, never
// pick a job up, or ignore abort requests; flags set the last two for
// every item. It acts as deployers built on Landscaper's library do: it
// works on an item only while status.jobID differs from jobIDFinished,
// picks a job up by writing phase Init (InitDelete when deleting),
// observedGeneration, lastReconcileTime, its identity and
// transitionTimes.initTime, and ends it with a final phase and
// jobIDFinished — every write carrying the resourceVersion it read, so a
// job the other side ended meanwhile is dropped. It stops slow work when
// the item carries the abort annotation or was set to a failed phase by
// the other side.
package testdeployer

import (
	"context"
	"fmt"
	"io"
	"sync"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/dynamic/dynamicinformer"
	"k8s.io/client-go/tools/cache"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer/external"
)

// Settings configure a Controller.
type Settings struct {
	// Client reaches the cluster of the DeployItems.
	Client    dynamic.Interface
	Namespace string
	Type      string
	// Identity is written into status.deployer.
	Identity string
	// Never: pick up no job at all.
	Never bool
	// IgnoreAbort: finish slow work even when asked to abort.
	IgnoreAbort bool
	// Log receives one line per event worth knowing.
	Log io.Writer
}

// Controller handles the DeployItems of one type in one namespace.
type Controller struct {
	s     Settings
	items cache.GenericLister

	mu      sync.Mutex
	running map[string]bool
	dirty   map[string]bool
	pokes   map[string]chan struct{}
}

// New returns a controller with s.
func New(s Settings) *Controller {
	if s.Log == nil {
		s.Log = io.Discard
	}
	return &Controller{s: s, running: map[string]bool{}, dirty: map[string]bool{}, pokes: map[string]chan struct{}{}}
}

// Run watches the DeployItems until ctx ends; ready is called once the
// first list is in.
func (c *Controller) Run(ctx context.Context, ready func()) error {
	factory := dynamicinformer.NewFilteredDynamicSharedInformerFactory(c.s.Client, 0, c.s.Namespace, nil)
	informer := factory.ForResource(external.DeployItems)
	c.items = informer.Lister()
	if _, err := informer.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    func(obj any) { c.notify(ctx, obj) },
		UpdateFunc: func(_, obj any) { c.notify(ctx, obj) },
	}); err != nil {
		return err
	}
	factory.Start(ctx.Done())
	if !cache.WaitForCacheSync(ctx.Done(), informer.Informer().HasSynced) {
		return fmt.Errorf("the DeployItem informer did not sync")
	}
	ready()
	<-ctx.Done()
	factory.Shutdown()
	return nil
}

// notify starts a worker for an item of this controller's type, or, when
// one runs, pokes it and has it look again when done.
func (c *Controller) notify(ctx context.Context, obj any) {
	u, ok := obj.(*unstructured.Unstructured)
	if !ok || c.s.Never || typeOf(u) != c.s.Type {
		return
	}
	name := u.GetName()
	c.mu.Lock()
	defer c.mu.Unlock()
	poke := c.pokes[name]
	if poke == nil {
		poke = make(chan struct{}, 1)
		c.pokes[name] = poke
	}
	select {
	case poke <- struct{}{}:
	default:
	}
	if c.running[name] {
		c.dirty[name] = true
		return
	}
	c.running[name] = true
	go func() {
		for {
			if err := c.handle(ctx, name, poke); err != nil && ctx.Err() == nil {
				c.logf("%s: %v", name, err)
			}
			c.mu.Lock()
			if !c.dirty[name] || ctx.Err() != nil {
				delete(c.running, name)
				c.mu.Unlock()
				return
			}
			c.dirty[name] = false
			c.mu.Unlock()
		}
	}()
}

// cached returns the informer's copy of an item (nil if none).
func (c *Controller) cached(name string) *unstructured.Unstructured {
	obj, err := c.items.ByNamespace(c.s.Namespace).Get(name)
	if err != nil {
		return nil
	}
	u, _ := obj.(*unstructured.Unstructured)
	return u
}

func (c *Controller) logf(format string, args ...any) {
	fmt.Fprintf(c.s.Log, format+"\n", args...)
}

// typeOf is an item's type, from the annotation deployers read first.
func typeOf(u *unstructured.Unstructured) string {
	if t := u.GetAnnotations()[external.AnnotationDeployerType]; t != "" {
		return t
	}
	t, _, _ := unstructured.NestedString(u.Object, "spec", "type")
	return t
}
