package landscaperfixture

import (
	"bytes"
	"sort"
	"strings"

	"helm.sh/helm/v3/pkg/chart/loader"
	"helm.sh/helm/v3/pkg/chartutil"
	"helm.sh/helm/v3/pkg/engine"
)

// renderedChart is what Landscaper's Helm deployer applies for rel when
// helmDeployment is false: the chart's templates rendered with rel's
// values (as `helm template` would), each object in rel's namespace.
func renderedChart(rel Release) []object {
	ch, err := loader.LoadArchive(bytes.NewReader(rel.Chart))
	if err != nil {
		panic(err)
	}
	opts := chartutil.ReleaseOptions{Name: rel.Name, Namespace: rel.Namespace, Revision: 1, IsInstall: true}
	vals, err := chartutil.ToRenderValues(ch, rel.Values, opts, chartutil.DefaultCapabilities)
	if err != nil {
		panic(err)
	}
	files, err := engine.Render(ch, vals)
	if err != nil {
		panic(err)
	}
	names := make([]string, 0, len(files))
	for name := range files {
		if strings.HasSuffix(name, ".yaml") && strings.TrimSpace(files[name]) != "" {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	out := make([]object, 0, len(names))
	for _, name := range names {
		o := mustYAMLObject(files[name])
		md, _ := o["metadata"].(map[string]any)
		md["namespace"] = rel.Namespace
		out = append(out, o)
	}
	return out
}
