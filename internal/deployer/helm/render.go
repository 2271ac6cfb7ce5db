package helm

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strings"

	"helm.sh/helm/v3/pkg/action"
	"helm.sh/helm/v3/pkg/chart"
	"helm.sh/helm/v3/pkg/chartutil"
	"helm.sh/helm/v3/pkg/engine"
	"helm.sh/helm/v3/pkg/releaseutil"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"sigs.k8s.io/yaml"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/failure"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/target"
)

// render renders the chart as `helm template` does, but against the
// target: capabilities come from its discovery and `lookup` reads from it.
// The chart's crds/ come first; hooks are left out, because without a
// release there is nothing that would run them.
func render(c *target.Clients, ch *chart.Chart, cfg *ProviderConfiguration) ([]*unstructured.Unstructured, error) {
	vals := cfg.values()
	if err := chartutil.ProcessDependenciesWithMerge(ch, vals); err != nil {
		return nil, failure.NewTerminal("InvalidChart", fmt.Errorf("chart dependencies: %w", err))
	}
	caps, err := capabilities(c)
	if err != nil {
		return nil, err
	}
	options := chartutil.ReleaseOptions{Name: cfg.Name, Namespace: cfg.Namespace, Revision: 1, IsInstall: true}
	renderValues, err := chartutil.ToRenderValues(ch, vals, options, caps)
	if err != nil {
		return nil, failure.NewTerminal("InvalidValues", fmt.Errorf("values: %w", err))
	}
	files, err := engine.New(c.Config).Render(ch, renderValues)
	if err != nil {
		return nil, failure.NewTerminal("RenderFailed", fmt.Errorf("rendering chart %s: %w", ch.Name(), err))
	}
	for name := range files {
		if strings.HasSuffix(name, "NOTES.txt") {
			delete(files, name)
		}
	}
	_, manifests, err := releaseutil.SortManifests(files, caps.APIVersions, releaseutil.InstallOrder)
	if err != nil {
		return nil, failure.NewTerminal("RenderFailed", fmt.Errorf("chart %s: %w", ch.Name(), err))
	}
	var docs []string
	for _, crd := range ch.CRDObjects() {
		docs = append(docs, string(crd.File.Data))
	}
	for _, m := range manifests {
		docs = append(docs, m.Content)
	}
	return parseManifest(strings.Join(docs, "\n---\n"))
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
