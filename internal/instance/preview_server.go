package instance

import (
	"context"
	"sync"
	"time"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine/execution"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine/snapshot"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/preview"
)

// ServerOptions are how a plan asks the clusters (plan_diff = "server").
type ServerOptions struct {
	// Timeout bounds the requests to one cluster; 0: DefaultServerTimeout.
	// A cluster that does not answer in time, or fails, is not asked
	// again in the same plan: its items show their offline preview.
	Timeout time.Duration
}

// DefaultServerTimeout bounds asking one cluster during one plan or
// refresh: a plan must not hang on an unreachable cluster.
const DefaultServerTimeout = 20 * time.Second

// serverPreview asks the clusters of one plan or refresh, remembering
// those that failed.
type serverPreview struct {
	r       Runner
	timeout time.Duration

	mu     sync.Mutex
	failed map[string]error // by Destination
}

func (o *ServerOptions) start(r Runner) *serverPreview {
	if o == nil {
		return nil
	}
	s := &serverPreview{r: r, timeout: o.Timeout, failed: map[string]error{}}
	if s.timeout <= 0 {
		s.timeout = DefaultServerTimeout
	}
	return s
}

// ask runs do against item's cluster, unless that cluster failed before
// in this plan. ok is false when the item's deployer cannot ask a
// cluster or the item has none: nothing to ask, no error.
func (s *serverPreview) ask(ctx context.Context, item deployer.Item, do func(context.Context, deployer.ServerPreviewer) error) (ok bool, err error) {
	if s.r.Engine == nil || s.r.Engine.Deployers == nil || item.Target == nil {
		return false, nil
	}
	sp, found := s.r.Engine.Deployers.ServerPreviewer(item.Type)
	if !found {
		return false, nil
	}
	dest := Destination(item.Target)
	s.mu.Lock()
	err = s.failed[dest]
	s.mu.Unlock()
	if err != nil {
		return true, err
	}
	ctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	if err = do(ctx, sp); err != nil {
		s.mu.Lock()
		s.failed[dest] = err
		s.mu.Unlock()
	}
	return true, err
}

// dryRun returns what item's cluster would make of objs; objs and why
// when the cluster could not be asked.
func (s *serverPreview) dryRun(ctx context.Context, item deployer.Item, objs []deployer.PreviewObject) ([]deployer.PreviewObject, error) {
	var out []deployer.PreviewObject
	_, err := s.ask(ctx, item, func(ctx context.Context, sp deployer.ServerPreviewer) (err error) {
		out, err = sp.DryRun(ctx, item, objs)
		return err
	})
	if err != nil || out == nil {
		return objs, err
	}
	return out, nil
}

// LiveText is an item's text refreshed from its cluster.
type LiveText struct {
	ID, Text string
	// Err says why the item's cluster could not be read; Text is then
	// "". It may quote secrets.
	Err error
}

// Live reads the objects the texts (by item ID, as a plan showed them)
// name from the clusters the items of snap were applied to, and returns
// each item's text as they are now: what a plan with plan_diff =
// "server" compares with. Objects that are gone are left out. Items
// whose deployer cannot ask a cluster (deployer.ServerPreviewer), that
// are not in snap or whose text is "", are left out of the result.
func (r Runner) Live(ctx context.Context, snap *engine.Snapshot, texts map[string]string, opts PreviewOptions) []LiveText {
	if snap.Empty() {
		return nil
	}
	renderer := preview.NewRenderer(opts.Marks, opts.Sensitive)
	server := (&ServerOptions{}).start(r)
	if opts.Server != nil {
		server = opts.Server.start(r)
	}
	var (
		mu  sync.Mutex
		out []LiveText
		wg  sync.WaitGroup
	)
	parallelism := r.Engine.Parallelism
	if parallelism <= 0 {
		parallelism = engine.DefaultParallelism
	}
	slots := make(chan struct{}, parallelism)
	refs := snapshot.RootProviderRefs(snap.Root.Targets)
	for _, in := range snap.Installations() {
		if in.Execution == nil {
			continue
		}
		for _, it := range in.Execution.DeployItems {
			text := texts[it.ID]
			if text == "" {
				continue
			}
			target, err := execution.AppliedTarget(in.Targets, it)
			if err != nil {
				continue
			}
			item, err := execution.Targeted(refs, deployer.Item{ID: it.ID, Name: it.Name, Type: it.Type, Config: it.Config}, target)
			if err != nil {
				continue // a refused target is not read
			}
			wg.Add(1)
			slots <- struct{}{}
			go func() {
				defer func() { <-slots; wg.Done() }()
				t, ok := server.live(ctx, renderer, item, text)
				if ok {
					mu.Lock()
					out = append(out, t)
					mu.Unlock()
				}
			}()
		}
	}
	wg.Wait()
	return out
}

// live is one item's text as its cluster has the objects text names.
func (s *serverPreview) live(ctx context.Context, renderer *preview.Renderer, item deployer.Item, text string) (LiveText, bool) {
	docs := preview.Documents(text)
	refs := make([]deployer.ObjectRef, len(docs))
	notes := map[deployer.ObjectRef]string{}
	for i, d := range docs {
		refs[i] = d.Ref
		notes[d.Ref] = d.Note
	}
	var objs []deployer.PreviewObject
	ok, err := s.ask(ctx, item, func(ctx context.Context, sp deployer.ServerPreviewer) (err error) {
		objs, err = sp.Live(ctx, item, refs)
		return err
	})
	if !ok {
		return LiveText{}, false
	}
	if err != nil {
		return LiveText{ID: item.ID, Err: err}, true
	}
	for i, o := range objs {
		objs[i].Note = notes[deployer.RefOf(o.Object).Named()]
	}
	texts, err := renderer.Item(item.ID, objs)
	if err != nil {
		return LiveText{ID: item.ID, Err: err}, true
	}
	return LiveText{ID: item.ID, Text: preview.Join(preview.ItemPrefix(item.ID), texts)}, true
}
