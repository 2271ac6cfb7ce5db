package helm

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"helm.sh/helm/v3/pkg/action"
	"helm.sh/helm/v3/pkg/chart"
	"helm.sh/helm/v3/pkg/chartutil"
	"helm.sh/helm/v3/pkg/engine"
	"helm.sh/helm/v3/pkg/release"
	"helm.sh/helm/v3/pkg/releaseutil"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"sigs.k8s.io/yaml"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/failure"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/target"
)

// chartRender is one rendering of an item's chart, the one code path of
// the rendered-chart apply (render) and of the plan's preview
// (previewRender): values and dependencies, the release options, Helm's
// template engine, and the documents in the order Helm installs them. It
// runs in the sandbox's child only (sandboxed.go).
type chartRender struct {
	cfg     *ProviderConfiguration
	caps    *chartutil.Capabilities
	options chartutil.ReleaseOptions
	// real is a release: its crds/ carry a note and its hooks (not its
	// test hooks) are listed, as Helm treats them. A rendered chart has
	// no release that would run hooks, so they are left out.
	real bool
	// lookup serves `lookup`; nil: it finds nothing (the plan).
	lookup engine.ClientProvider
}

// skipSchema says whether the rendering skips the check of the values
// against the chart's values.schema.json: the skipSchemaValidation of the
// action it stands for (an upgrade's for an upgrade, else the install's),
// as Helm's install and upgrade honour it.
func (r chartRender) skipSchema() bool {
	if r.cfg == nil || r.cfg.HelmDeploymentConfig == nil {
		return false
	}
	if r.options.IsUpgrade {
		return r.cfg.HelmDeploymentConfig.Upgrade.SkipSchemaValidation
	}
	return r.cfg.HelmDeploymentConfig.Install.SkipSchemaValidation
}

// renderedDoc is one rendered document and its note.
type renderedDoc struct {
	content string
	note    string
}

// prepare merges the dependencies' values into vals and turns them into
// the values the templates see (checked against the chart's schema).
func (r chartRender) prepare(ch *chart.Chart, vals map[string]any) (chartutil.Values, error) {
	if err := chartutil.ProcessDependenciesWithMerge(ch, vals); err != nil {
		return nil, failure.NewTerminal("InvalidChart", fmt.Errorf("chart dependencies: %w", err))
	}
	renderValues, err := chartutil.ToRenderValuesWithSchemaValidation(ch, vals, r.options, r.caps, r.skipSchema())
	if err != nil {
		return nil, failure.NewTerminal("InvalidValues", fmt.Errorf("values: %w", err))
	}
	return renderValues, nil
}

// docs renders the chart's templates and lists the documents (docsOf).
func (r chartRender) docs(ch *chart.Chart, vals chartutil.Values) ([]renderedDoc, error) {
	files, err := r.files(ch, vals)
	if err != nil {
		return nil, err
	}
	return r.docsOf(ch, files)
}

// files renders the chart's templates: Helm's engine output, by file.
func (r chartRender) files(ch *chart.Chart, vals chartutil.Values) (map[string]string, error) {
	var files map[string]string
	var err error
	if r.lookup != nil {
		files, err = engine.RenderWithClientProvider(ch, vals, r.lookup)
	} else {
		files, err = engine.Render(ch, vals)
	}
	if err != nil {
		return nil, failure.NewTerminal("RenderFailed", fmt.Errorf("rendering chart %s: %w", ch.Name(), err))
	}
	return files, nil
}

// docsOf lists the documents of rendered files: crds/ first, then the
// manifests in install order, then (real releases) the hooks. NOTES.txt
// is no document.
func (r chartRender) docsOf(ch *chart.Chart, rendered map[string]string) ([]renderedDoc, error) {
	files := make(map[string]string, len(rendered))
	for name, content := range rendered {
		if !strings.HasSuffix(name, "NOTES.txt") {
			files[name] = content
		}
	}
	hooks, manifests, err := releaseutil.SortManifests(files, r.caps.APIVersions, releaseutil.InstallOrder)
	if err != nil {
		return nil, failure.NewTerminal("RenderFailed", fmt.Errorf("chart %s: %w", ch.Name(), err))
	}
	var docs []renderedDoc
	crdNote := ""
	if r.real {
		crdNote = noteCRD
	}
	for _, crd := range ch.CRDObjects() {
		docs = append(docs, renderedDoc{content: string(crd.File.Data), note: crdNote})
	}
	for _, m := range manifests {
		docs = append(docs, renderedDoc{content: m.Content})
	}
	if !r.real {
		return docs, nil
	}
	for _, h := range hooks {
		var events []string
		for _, e := range h.Events {
			if e != release.HookTest && e != "test-success" {
				events = append(events, string(e))
			}
		}
		if len(events) > 0 {
			docs = append(docs, renderedDoc{content: h.Manifest, note: noteHook + strings.Join(events, ", ")})
		}
	}
	return docs, nil
}

// render renders the chart as `helm template` does, but against the
// target: capabilities come from its discovery and `lookup` reads from it.
// The chart's crds/ come first; hooks are left out, because without a
// release there is nothing that would run them.
func (d *Deployer) render(ctx context.Context, c *target.Clients, ch *chart.Chart, cfg *ProviderConfiguration) ([]*unstructured.Unstructured, error) {
	caps, err := capabilities(c)
	if err != nil {
		return nil, err
	}
	opts := chartutil.ReleaseOptions{Name: cfg.Name, Namespace: cfg.Namespace, Revision: 1, IsInstall: true}
	docs, err := d.renderDocs(ctx, ch, renderJob{Values: cfg.Values, Caps: caps, Options: opts,
		SkipSchema: skipSchemaFor(cfg, opts)}, c.Config)
	if err != nil {
		return nil, err
	}
	contents := make([]string, len(docs))
	for i, d := range docs {
		contents[i] = d.content
	}
	return parseManifest(strings.Join(contents, "\n---\n"))
}

func capabilities(c *target.Clients) (*chartutil.Capabilities, error) {
	sv, err := c.Discovery.ServerVersion()
	if err != nil {
		return nil, fmt.Errorf("reading the cluster's version: %w", err)
	}
	versions, err := action.GetVersionSet(c.Discovery)
	if err != nil {
		return nil, fmt.Errorf("reading the cluster's API versions: %w", err)
	}
	return &chartutil.Capabilities{
		KubeVersion: chartutil.KubeVersion{Version: sv.GitVersion, Major: sv.Major, Minor: sv.Minor},
		APIVersions: versions,
		HelmVersion: chartutil.DefaultCapabilities.HelmVersion,
	}, nil
}

// parseManifest splits a multi-document YAML stream into objects, in
// stream order, skipping empty documents. Each document keeps the line
// break before the next separator, as Helm's and Landscaper's decoders
// of a whole stream do (releaseutil.SplitManifests trims it, which takes
// the final line break off a block scalar that ends a document: the
// object would differ from the one the cluster holds).
func parseManifest(stream string) ([]*unstructured.Unstructured, error) {
	r := utilyaml.NewYAMLReader(bufio.NewReader(strings.NewReader(stream)))
	var out []*unstructured.Unstructured
	for {
		doc, err := r.Read()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, failure.NewTerminal("RenderFailed", fmt.Errorf("rendered document %d is not YAML: %w", len(out)+1, err))
		}
		var obj map[string]any
		if err := yaml.Unmarshal(doc, &obj); err != nil {
			return nil, failure.NewTerminal("RenderFailed", fmt.Errorf("rendered document %d is not YAML: %w", len(out)+1, err))
		}
		if len(obj) == 0 {
			continue
		}
		out = append(out, &unstructured.Unstructured{Object: obj})
	}
}
