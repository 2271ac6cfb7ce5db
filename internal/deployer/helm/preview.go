package helm

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"

	"helm.sh/helm/v3/pkg/chart"
	"helm.sh/helm/v3/pkg/chartutil"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes/scheme"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer/manifest"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/parallel"
)

var (
	_ deployer.Previewer          = (*Deployer)(nil)
	_ deployer.CapabilitiesReader = (*Deployer)(nil)
)

// Notes of objects Helm treats differently from the release's manifests.
const (
	noteCRD  = "helm crds/: installed when missing, never upgraded or deleted"
	noteHook = "helm hook: "
)

// Preview implements deployer.Previewer: the chart rendered locally as the
// next apply renders it — release name and namespace, values, the
// revision after the recorded one, the recorded capabilities — with
// `lookup` finding nothing and no DNS, in the sandbox (sandboxed.go). A real release shows its crds/ and
// its hooks (not its test hooks) with a note; a rendered chart shows what
// Apply applies. The chart is rendered twice: values that differ between
// the two renderings (random passwords, generated certificates) show as
// deployer.Generated, so the same request always gives the same objects.
// A remote chart is fetched only from the location the item's last apply
// fetched from, or a version its source lists (checkPlanFetch), and fails when its source no longer
// serves the digest req.Pins holds (checkChartPin).
func (d *Deployer) Preview(ctx context.Context, req deployer.PreviewRequest) (deployer.Preview, error) {
	cfg, err := ParseConfig(req.Item.Config)
	if err != nil {
		return deployer.Preview{}, err
	}
	prev, err := decodeStatus(req.Item.ProviderStatus)
	if err != nil {
		return deployer.Preview{}, err
	}
	if err := d.checkPlanFetch(ctx, cfg.Chart, req.Applied); err != nil {
		return deployer.Preview{}, err
	}
	ch, digest, err := loadChart(ctx, cfg.Chart, req.Item.Files, d.resources)
	if err != nil {
		return deployer.Preview{}, fmt.Errorf("chart: %w", err)
	}
	pins, err := checkChartPin(req.Item.ID, cfg.Chart, req.Pins, digest)
	if err != nil {
		return deployer.Preview{}, err
	}
	r := previewRender{chartRender{cfg: cfg, caps: chartCapabilities(req.Capabilities), real: cfg.realRelease()}}
	r.options = chartutil.ReleaseOptions{Name: cfg.Name, Namespace: cfg.Namespace, Revision: 1, IsInstall: true}
	if r.real && prev.Release != nil && prev.Release.Revision > 0 {
		r.options = chartutil.ReleaseOptions{Name: cfg.Name, Namespace: cfg.Namespace, Revision: prev.Release.Revision + 1, IsUpgrade: true}
	}
	measure := r.real && d.sql == nil
	docs, size, err := d.renderRelease(ctx, ch, renderJob{Values: cfg.Values, Caps: r.caps, Options: r.options, Real: r.real, Twice: true,
		SkipSchema: r.skipSchema(), Record: measure, Stamp: ownerOf(req.Item, prev).stampLabels()}, nil)
	if err != nil {
		return deployer.Preview{}, err
	}
	if measure {
		if err := recordError(req.Item.ID, cfg.Namespace, cfg.Name, size); err != nil {
			return deployer.Preview{}, err
		}
	}
	pv, err := r.objects(req.Item.ID, docs)
	pv.Pins = pins
	return pv, err
}

// Capabilities implements deployer.CapabilitiesReader with the pool's
// shared discovery cache of target's cluster.
func (d *Deployer) Capabilities(_ context.Context, t *api.Target) (*deployer.Capabilities, error) {
	c, err := d.pool.Clients(t)
	if err != nil {
		return nil, err
	}
	caps, err := capabilities(c)
	if err != nil {
		return nil, err
	}
	versions := slices.Clone([]string(caps.APIVersions))
	slices.Sort(versions)
	return &deployer.Capabilities{KubeVersion: caps.KubeVersion.Version, KubeMajor: caps.KubeVersion.Major,
		KubeMinor: caps.KubeVersion.Minor, APIVersions: slices.Compact(versions)}, nil
}

// DefaultCapabilities are what a preview renders with when no
// capabilities were recorded (a new item, or one whose cluster was never
// read): a cluster of the Kubernetes minor version this provider's
// client-go speaks, serving every built-in API version and kind. Helm's
// own defaults (Kubernetes 1.20, group versions without kinds) would
// make charts take branches for clusters that no longer exist.
func DefaultCapabilities() *deployer.Capabilities { return defaultCapabilities() }

// KubeMinor is the Kubernetes minor version of the k8s.io/client-go this
// provider is built with (v0.N.x goes with Kubernetes 1.N); a test keeps
// it in step with go.mod.
const KubeMinor = "37"

var defaultCapabilities = sync.OnceValue(func() *deployer.Capabilities {
	d := chartutil.DefaultCapabilities
	major, minor := "1", KubeMinor
	versions := slices.Clone([]string(d.APIVersions))
	for gvk := range scheme.Scheme.AllKnownTypes() {
		if gvk.Version == runtime.APIVersionInternal || strings.HasSuffix(gvk.Kind, "List") || strings.HasSuffix(gvk.Kind, "Options") ||
			gvk.Kind == "WatchEvent" || gvk.Kind == "Status" {
			continue
		}
		versions = append(versions, gvk.GroupVersion().String(), gvk.GroupVersion().String()+"/"+gvk.Kind)
	}
	slices.Sort(versions)
	return &deployer.Capabilities{KubeVersion: "v" + major + "." + minor + ".0", KubeMajor: major, KubeMinor: minor,
		APIVersions: slices.Compact(versions)}
})

// chartCapabilities are recorded capabilities as Helm takes them; Helm's
// defaults when none were recorded.
func chartCapabilities(c *deployer.Capabilities) *chartutil.Capabilities {
	if c == nil {
		c = defaultCapabilities()
	}
	major, minor := c.KubeMajor, c.KubeMinor
	if major == "" || minor == "" {
		parts := strings.SplitN(strings.TrimPrefix(c.KubeVersion, "v"), ".", 3)
		if len(parts) >= 2 {
			major, minor = parts[0], parts[1]
		}
	}
	return &chartutil.Capabilities{
		KubeVersion: chartutil.KubeVersion{Version: c.KubeVersion, Major: major, Minor: minor},
		APIVersions: chartutil.VersionSet(c.APIVersions),
		HelmVersion: chartutil.DefaultCapabilities.HelmVersion,
	}
}

// previewRender renders one item's chart without a cluster: chartRender
// with `lookup` finding nothing.
type previewRender struct{ chartRender }

// stable renders twice and replaces what differs by deployer.Generated;
// it also returns the files of the first rendering.
func (r previewRender) stable(ch *chart.Chart) ([]renderedDoc, map[string]string, error) {
	renderValues, err := r.prepare(ch, r.cfg.values())
	if err != nil {
		return nil, nil, err
	}
	files, err := r.files(ch, renderValues)
	if err != nil {
		return nil, nil, err
	}
	first, err := r.docsOf(ch, files)
	if err != nil {
		return nil, nil, err
	}
	second, err := r.docs(ch, renderValues)
	if err != nil {
		return nil, nil, err
	}
	if len(first) != len(second) {
		return first, files, nil // only a chart that branches on a random draw: nothing to align
	}
	for i := range first {
		if first[i].content != second[i].content {
			first[i].content = stabilize(first[i].content, second[i].content)
		}
	}
	return first, files, nil
}

// objects decodes the documents as Apply would and adds the release
// namespace when createNamespace asks for it.
func (r previewRender) objects(itemID string, docs []renderedDoc) (deployer.Preview, error) {
	var manifests []manifest.Manifest
	var notes []string
	if r.cfg.CreateNamespace {
		ns, _ := json.Marshal(map[string]any{"apiVersion": "v1", "kind": "Namespace", "metadata": map[string]any{"name": r.cfg.Namespace}})
		manifests = append(manifests, manifest.Manifest{Policy: manifest.PolicyKeep, Manifest: ns})
		notes = append(notes, "")
	}
	parsed := make([][]manifest.Manifest, len(docs))
	errs := make([]error, len(docs))
	parallel.Each(len(docs), func(i int) {
		var objs []*unstructured.Unstructured
		if objs, errs[i] = parseManifest(docs[i].content); errs[i] == nil {
			parsed[i] = toManifests(objs)
		}
	})
	for i, doc := range docs {
		if errs[i] != nil {
			return deployer.Preview{}, errs[i]
		}
		for _, o := range parsed[i] {
			manifests = append(manifests, o)
			notes = append(notes, doc.note)
		}
	}
	desired, err := manifest.DecodeManifests(itemID, manifests)
	if err != nil {
		return deployer.Preview{}, invalid(err)
	}
	out := manifest.PreviewObjects(desired)
	if len(out) != len(notes) { // a List kind expanded: notes no longer align
		return deployer.Preview{Objects: out}, nil
	}
	for i := range out {
		out[i].Note = joinNotes(out[i].Note, notes[i])
	}
	return deployer.Preview{Objects: out}, nil
}

func joinNotes(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + "; " + b
}

// stabilize returns a with every value that differs in b (the same
// document rendered again) replaced by deployer.Generated; documents that
// are not both YAML objects of the same shape come back as a.
func stabilize(a, b string) string {
	oa, errA := parseManifest(a)
	ob, errB := parseManifest(b)
	if errA != nil || errB != nil || len(oa) != len(ob) {
		return a
	}
	var out []string
	for i := range oa {
		merged, _ := json.Marshal(generated(oa[i].Object, ob[i].Object))
		out = append(out, string(merged)) // JSON is YAML
	}
	return strings.Join(out, "\n---\n")
}

// generated is a with the leaves that differ from b replaced.
func generated(a, b any) any {
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok {
			return deployer.Generated
		}
		out := make(map[string]any, len(x))
		for k, v := range x {
			if w, ok := y[k]; ok {
				out[k] = generated(v, w)
			} else {
				out[k] = v
			}
		}
		return out
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return deployer.Generated
		}
		out := make([]any, len(x))
		for i := range x {
			out[i] = generated(x[i], y[i])
		}
		return out
	}
	if reflect.DeepEqual(a, b) {
		return a
	}
	return deployer.Generated
}
