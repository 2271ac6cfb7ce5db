package instance

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"runtime"
	"sync"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine/execution"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine/snapshot"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/failure"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/preview"
)

// PreviewOptions say how Preview shows the items.
type PreviewOptions struct {
	// Marks give masked values their versioned markers; nil: fresh ones.
	Marks *preview.Marks
	// Sensitive are the values masked wherever they appear; nil: none.
	Sensitive *preview.Sensitive
	// Capabilities are what each destination cluster offered at the last
	// apply, by Destination; an item of another cluster renders with its
	// deployer's defaults.
	Capabilities map[string]*deployer.Capabilities
	// Skip says which items need no text (the caller keeps theirs); nil:
	// every item is shown.
	Skip func(id string) bool
	// Server asks each changed item's cluster what its objects will be
	// (ServerOptions); nil: the text is what the deployer previews alone.
	Server *ServerOptions
	// Pins are the digests resolved at refresh of what items fetch, by
	// item ID (Runner.Resolve): a source that now serves other content
	// fails the item's preview with a deployer.PinMovedError.
	Pins map[string]deployer.Pins
}

// ItemText is what a plan shows of one deploy item.
type ItemText struct {
	ID string
	// Text is the item's objects (preview.Join under the item's prefix);
	// "" when Err is set.
	Text string
	// Err says why the item could not be shown; it may quote secrets.
	Err error
	// Offline says why the item's text is its deployer's preview alone
	// although the cluster was asked (Server); it may quote secrets.
	Offline error
	// Pins are the digests of what the preview fetched (nil: nothing).
	Pins deployer.Pins
	// Exports are the item's exports as its objects decide them
	// (deployer.ExportPredictor); nil when its deployer cannot say.
	Exports *deployer.PredictedExports
}

// Preview returns the text of every item of tree that Skip does not skip,
// in the tree's order. Items whose deployer is a deployer.Previewer show
// the objects it previews (the configuration as the next apply would
// deploy it, Helm charts rendered locally); others show their
// configuration as a DeployItem (deployer.ConfigObject). Items are
// previewed up to GOMAXPROCS at a time: rendering charts is CPU work.
func (r Runner) Preview(ctx context.Context, tree *engine.RenderedTree, prev *engine.Snapshot, opts PreviewOptions) []ItemText {
	return r.preview(ctx, engine.PreviewItems(tree, prev), opts)
}

// PreviewRecorded is Preview of what snap recorded (every item's last
// configuration, engine.RecordedPreviewItems): for a state that has no
// text yet, and for an apply whose plan could not know every item. root
// and comp are the root's blueprint and component (nil when they cannot
// be loaded: Helm items then report an error).
func (r Runner) PreviewRecorded(ctx context.Context, snap *engine.Snapshot, root *blueprint.Blueprint, comp *blueprint.Component, opts PreviewOptions) []ItemText {
	return r.preview(ctx, engine.RecordedPreviewItems(snap, root, comp), opts)
}

func (r Runner) preview(ctx context.Context, all []deployer.PreviewRequest, opts PreviewOptions) []ItemText {
	renderer := preview.NewRenderer(opts.Marks, opts.Sensitive)
	var reqs []deployer.PreviewRequest
	// Destination encodes and hashes the whole Target (its kubeconfig
	// too): once per Target, and not at all without capabilities to find
	// (no item renders with them, as without Helm items).
	dests := map[*api.Target]string{}
	for _, req := range all {
		if opts.Skip == nil || !opts.Skip(req.Item.ID) {
			if len(opts.Capabilities) > 0 {
				dest, ok := dests[req.Item.Target]
				if !ok {
					dest = Destination(req.Item.Target)
					dests[req.Item.Target] = dest
				}
				req.Capabilities = opts.Capabilities[dest]
			}
			req.Pins = opts.Pins[req.Item.ID]
			reqs = append(reqs, req)
		}
	}
	out := make([]ItemText, len(reqs))
	server := opts.Server.start(r)
	slots := make(chan struct{}, runtime.GOMAXPROCS(0))
	var wg sync.WaitGroup
	for i, req := range reqs {
		wg.Add(1)
		slots <- struct{}{}
		go func() {
			defer func() { <-slots; wg.Done() }()
			out[i] = r.previewOne(ctx, renderer, server, req)
		}()
	}
	wg.Wait()
	return out
}

// previewOne shows one item; a panicking deployer is the item's error.
func (r Runner) previewOne(ctx context.Context, renderer *preview.Renderer, server *serverPreview, req deployer.PreviewRequest) (t ItemText) {
	t.ID = req.Item.ID
	defer func() {
		if p := recover(); p != nil {
			t = ItemText{ID: req.Item.ID, Err: failure.FromPanic("the deployer's preview", p)}
		}
	}()
	objs, pins, err := r.previewObjects(ctx, req)
	if err != nil {
		return ItemText{ID: t.ID, Err: err}
	}
	t.Pins = pins
	rendered, served := objs, []deployer.PreviewObject(nil)
	if server != nil {
		objs, t.Offline = server.dryRun(ctx, req.Item, objs)
		if t.Offline == nil {
			served = objs
		}
	}
	t.Exports = r.predictExports(req.Item.Type, req.Item.Config, rendered, served)
	texts, err := renderer.Item(t.ID, objs)
	if err != nil {
		return ItemText{ID: t.ID, Err: err}
	}
	t.Text = preview.Join(preview.ItemPrefix(t.ID), texts)
	return t
}

// previewObjects asks the item's deployer what it deploys, or describes
// the item by its configuration when the deployer cannot say.
func (r Runner) previewObjects(ctx context.Context, req deployer.PreviewRequest) ([]deployer.PreviewObject, deployer.Pins, error) {
	if r.Engine != nil && r.Engine.Deployers != nil {
		if p, ok := r.Engine.Deployers.Previewer(req.Item.Type); ok {
			pv, err := p.Preview(ctx, req)
			return pv.Objects, pv.Pins, err
		}
	}
	o, err := deployer.ConfigObject(req.Item.Name, req.Item.Type, req.Item.Config)
	if err != nil {
		return nil, nil, err
	}
	return []deployer.PreviewObject{o}, nil, nil
}

// Destination names the cluster of a target for recorded capabilities:
// the first 128 bits of SHA-256 of the target as JSON; "" for none.
func Destination(t *api.Target) string {
	if t == nil {
		return ""
	}
	b, err := json.Marshal(t)
	if err != nil {
		return ""
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:16])
}

// Capabilities reads, after a job, the capabilities of every cluster an
// item of snap was applied to whose deployer renders with them
// (deployer.CapabilitiesReader: Helm), by Destination, for the next
// plan's previews. The reads come from the deployers' discovery caches,
// which the job filled. A cluster that cannot be read is left out: its
// items render with their deployer's defaults.
func (r Runner) Capabilities(ctx context.Context, snap *engine.Snapshot) map[string]*deployer.Capabilities {
	out := map[string]*deployer.Capabilities{}
	if snap.Empty() || r.Engine == nil || r.Engine.Deployers == nil {
		return out
	}
	refs := snapshot.RootProviderRefs(snap.Root.Targets)
	for _, it := range snap.DeployItems() {
		// Only the items of a deployer that renders with capabilities
		// (Helm) are looked at further: Destination encodes and hashes
		// the whole Target, 10,000 times for as many manifest items.
		d, err := r.Engine.Deployers.Lookup(it.Type)
		reader, ok := d.(deployer.CapabilitiesReader)
		if err != nil || !ok || it.AppliedTarget == nil || it.Phase != api.DeployItemPhaseSucceeded ||
			execution.CheckTarget(refs, it.AppliedTarget, it.ID) != nil {
			continue
		}
		dest := Destination(it.AppliedTarget)
		if _, done := out[dest]; done {
			continue
		}
		caps, err := reader.Capabilities(ctx, it.AppliedTarget)
		if err != nil {
			if r.Log != nil {
				r.Log.Info("cluster capabilities not recorded", "item", it.ID, "error", fmt.Sprint(err))
			}
			continue
		}
		out[dest] = caps
	}
	return out
}
