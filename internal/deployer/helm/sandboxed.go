package helm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"helm.sh/helm/v3/pkg/chart"
	"helm.sh/helm/v3/pkg/chartutil"
	"helm.sh/helm/v3/pkg/engine"
	"helm.sh/helm/v3/pkg/release"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/failure"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/sandbox"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/target"
)

// A chart is a blueprint's code: its templates run with Sprig, loops and
// recursion, and Helm's engine takes no context, no step, memory or
// output limit. Every rendering of a chart — the plan's preview, the
// rendered-chart apply, its drift check, and the check before a real
// release (gateRelease) — therefore runs in the sandbox (package
// sandbox) within render_limits: a chart that loops without end, or
// builds gigabytes, is killed with the child, and the provider process
// never holds what it built. `lookup` is asked of the parent, which holds
// the cluster's credentials; the child holds none.

// renderKind is the sandbox job that renders a chart.
const renderKind = "helm-chart"

func init() { sandbox.Serve(renderKind, renderInChild) }

// renderJob is one rendering: chartRender's inputs.
type renderJob struct {
	Chart wireChart `json:"chart"`
	// Values are the item's values as its configuration holds them,
	// decoded in the child as Apply decodes them (values()).
	Values  json.RawMessage          `json:"values,omitempty"`
	Caps    *chartutil.Capabilities  `json:"caps"`
	Options chartutil.ReleaseOptions `json:"options"`
	Real    bool                     `json:"real,omitempty"`
	// Twice renders twice and marks what differs (the preview: stable).
	Twice bool `json:"twice,omitempty"`
	// Lookup makes `lookup` ask the parent; false: it finds nothing.
	Lookup bool `json:"lookup,omitempty"`
	// SkipSchema is the skipSchemaValidation of the action the rendering
	// stands for (chartRender.skipSchema), which the child's configuration
	// holds for both actions.
	SkipSchema bool `json:"skipSchema,omitempty"`
	// Record measures the release record Helm would write for the
	// rendering (record.go), its manifest stamped with Stamp (the
	// post-renderer's labels) first.
	Record bool              `json:"record,omitempty"`
	Stamp  map[string]string `json:"stamp,omitempty"`
}

// renderAnswer is what the child sends back: the documents and, when
// the job asked, the size of the release record (recordSize).
type renderAnswer struct {
	Docs   []wireDoc `json:"docs"`
	Record int       `json:"record,omitempty"`
}

// skipSchemaFor is the skipSchemaValidation of the action opts stand for.
func skipSchemaFor(cfg *ProviderConfiguration, opts chartutil.ReleaseOptions) bool {
	return chartRender{cfg: cfg, options: opts}.skipSchema()
}

// wireChart is a chart with its dependencies, which chart.Chart does not
// encode.
type wireChart struct {
	Chart        *chart.Chart `json:"chart"`
	Dependencies []wireChart  `json:"dependencies,omitempty"`
}

func wireOf(ch *chart.Chart) wireChart {
	w := wireChart{Chart: ch}
	for _, d := range ch.Dependencies() {
		w.Dependencies = append(w.Dependencies, wireOf(d))
	}
	return w
}

func (w wireChart) chart() (*chart.Chart, error) {
	if w.Chart == nil || w.Chart.Metadata == nil {
		return nil, errors.New("no chart")
	}
	for _, d := range w.Dependencies {
		dep, err := d.chart()
		if err != nil {
			return nil, err
		}
		w.Chart.AddDependency(dep)
	}
	return w.Chart, nil
}

// wireDoc is a renderedDoc as the child sends it.
type wireDoc struct {
	Content string `json:"content"`
	Note    string `json:"note,omitempty"`
}

// lookupArgs are the arguments of one `lookup`.
type lookupArgs struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Namespace  string `json:"namespace,omitempty"`
	Name       string `json:"name,omitempty"`
}

// renderDocs renders ch for j in the sandbox within d's limits; with a
// cluster, `lookup` reads from it (through the parent).
func (d *Deployer) renderDocs(ctx context.Context, ch *chart.Chart, j renderJob, cluster *rest.Config) ([]renderedDoc, error) {
	docs, _, err := d.renderRelease(ctx, ch, j, cluster)
	return docs, err
}

// renderRelease is renderDocs that also returns the size of the release
// record when j asks for it (Record), 0 otherwise.
func (d *Deployer) renderRelease(ctx context.Context, ch *chart.Chart, j renderJob, cluster *rest.Config) ([]renderedDoc, int, error) {
	j.Chart = wireOf(ch)
	var answer sandbox.Answer
	if cluster != nil {
		j.Lookup = true
		lookup := engine.NewLookupFunction(cluster)
		answer = func(name string, args json.RawMessage) (any, error) {
			var a lookupArgs
			if name != "lookup" || json.Unmarshal(args, &a) != nil {
				return nil, fmt.Errorf("unknown question %q", name)
			}
			return lookup(a.APIVersion, a.Kind, a.Namespace, a.Name)
		}
	}
	var out renderAnswer
	if err := sandbox.Run(ctx, renderKind, j, d.limits, answer, &out); err != nil {
		if errors.Is(err, sandbox.ErrLimit) {
			return nil, 0, failure.NewTerminal("RenderLimit", fmt.Errorf("rendering chart %s: %w", ch.Name(), err))
		}
		if ctx.Err() != nil {
			return nil, 0, fmt.Errorf("rendering chart %s: %w", ch.Name(), err)
		}
		return nil, 0, failure.NewTerminal("RenderFailed", err)
	}
	docs := make([]renderedDoc, len(out.Docs))
	for i, w := range out.Docs {
		docs[i] = renderedDoc{content: w.Content, note: w.Note}
	}
	return docs, out.Record, nil
}

// renderInChild does a renderJob in the sandbox's child.
func renderInChild(in json.RawMessage, call sandbox.Call) (any, error) {
	var j renderJob
	if err := json.Unmarshal(in, &j); err != nil {
		return nil, err
	}
	ch, err := j.Chart.chart()
	if err != nil {
		return nil, err
	}
	skip := ActionOptions{SkipSchemaValidation: j.SkipSchema}
	cfg := &ProviderConfiguration{Values: j.Values, HelmDeploymentConfig: &DeploymentConfig{Install: skip, Upgrade: skip}}
	r := chartRender{cfg: cfg, caps: j.Caps, options: j.Options, real: j.Real}
	if j.Lookup {
		r.lookup = askedLookup{call: call}
	}
	var docs []renderedDoc
	var files map[string]string
	if j.Twice {
		docs, files, err = previewRender{r}.stable(ch)
	} else {
		var vals chartutil.Values
		if vals, err = r.prepare(ch, r.cfg.values()); err == nil {
			if files, err = r.files(ch, vals); err == nil {
				docs, err = r.docsOf(ch, files)
			}
		}
	}
	if err != nil {
		return nil, err
	}
	var out renderAnswer
	if j.Record {
		rel, err := r.record(ch, files, j.Stamp)
		if err != nil {
			return nil, err
		}
		if out.Record, err = recordBound(rel); err != nil {
			return nil, err
		}
	}
	out.Docs = make([]wireDoc, len(docs))
	for i, d := range docs {
		out.Docs[i] = wireDoc{Content: d.content, Note: d.note}
	}
	return out, nil
}

// askedLookup is the child's engine.ClientProvider: every `lookup` is a
// question to the parent, which reads the cluster as Helm would.
type askedLookup struct{ call sandbox.Call }

func (a askedLookup) GetClientFor(apiVersion, kind string) (dynamic.NamespaceableResourceInterface, bool, error) {
	// Namespaced either way: the parent's lookup knows whether the kind
	// is, and ignores the namespace of a cluster-scoped one.
	return &askedResource{call: a.call, apiVersion: apiVersion, kind: kind}, true, nil
}

// askedResource serves the two reads `lookup` makes; the embedded
// interface is nil, as Helm calls nothing else.
type askedResource struct {
	dynamic.NamespaceableResourceInterface
	call                        sandbox.Call
	apiVersion, kind, namespace string
}

func (r *askedResource) Namespace(ns string) dynamic.ResourceInterface {
	c := *r
	c.namespace = ns
	return &c
}

func (r *askedResource) ask(name string) ([]byte, error) {
	raw, err := r.call("lookup", lookupArgs{APIVersion: r.apiVersion, Kind: r.kind, Namespace: r.namespace, Name: name})
	if err != nil {
		return nil, err
	}
	var probe map[string]json.RawMessage
	if json.Unmarshal(raw, &probe) != nil || len(probe) == 0 {
		// The parent's lookup found nothing: what Helm's lookup makes of NotFound.
		gv, _ := schema.ParseGroupVersion(r.apiVersion)
		return nil, apierrors.NewNotFound(gv.WithResource(r.kind).GroupResource(), name)
	}
	return raw, nil
}

func (r *askedResource) Get(_ context.Context, name string, _ metav1.GetOptions, _ ...string) (*unstructured.Unstructured, error) {
	raw, err := r.ask(name)
	if err != nil {
		return nil, err
	}
	u := &unstructured.Unstructured{}
	return u, u.UnmarshalJSON(raw)
}

func (r *askedResource) List(_ context.Context, _ metav1.ListOptions) (*unstructured.UnstructuredList, error) {
	raw, err := r.ask("")
	if err != nil {
		return nil, err
	}
	l := &unstructured.UnstructuredList{}
	return l, l.UnmarshalJSON(raw)
}

// gateRelease renders ch in the sandbox as the install or upgrade after
// last will, before Helm's SDK renders the release in this process (its
// actions take no renderer of ours): a chart that exceeds a render limit
// fails here, before Helm starts. What remains is a chart that renders
// differently the second time (a random or time-dependent branch): Helm's
// own rendering of it is bounded only by the apply's timeouts.
//
// With Helm's Secret driver the rendering also measures the record Helm
// will write, and a release that a Secret cannot hold fails here too
// (record.go). The rendered objects are returned for takeOwnership's
// check of who claims them.
func (d *Deployer) gateRelease(ctx context.Context, c *target.Clients, ch *chart.Chart, cfg *ProviderConfiguration, last *release.Release, itemID string, owner releaseOwner) ([]renderedDoc, error) {
	caps, err := capabilities(c)
	if err != nil {
		return nil, err
	}
	opts := chartutil.ReleaseOptions{Name: cfg.Name, Namespace: cfg.Namespace, Revision: 1, IsInstall: true}
	if last != nil && last.Info != nil && last.Info.Status != release.StatusUninstalled && last.Info.Status != release.StatusPendingInstall {
		opts = chartutil.ReleaseOptions{Name: cfg.Name, Namespace: cfg.Namespace, Revision: last.Version + 1, IsUpgrade: true}
	}
	measure := d.sql == nil
	docs, size, err := d.renderRelease(ctx, ch, renderJob{Values: cfg.Values, Caps: caps, Options: opts, Real: true,
		SkipSchema: skipSchemaFor(cfg, opts), Record: measure, Stamp: owner.stampLabels()}, c.Config)
	if err != nil || !measure {
		return docs, err
	}
	return docs, recordError(itemID, cfg.Namespace, cfg.Name, size)
}
