package landscaperyaml

import (
	"strings"
	"testing"
)

// spec.context defaults to `default`, as in Landscaper: a Context of that
// name among the objects gives the repository context, and without one
// the reference is left to the host cluster's default Context (which a
// namespace without Landscaper does not have; the caller decides).
func TestConvert_DefaultContext(t *testing.T) {
	const ref = "  componentDescriptor:\n    ref: {componentName: example.com/a, version: v1}\n"
	const defaultContext = `---
apiVersion: landscaper.gardener.cloud/v1alpha1
kind: Context
metadata: {name: default}
repositoryContext: {type: ociRegistry, baseUrl: registry.example/from-default}
configurations: {helmChartRepoCredentials: {auths: [{url: charts.example, authHeader: x}]}}
`
	root, err := convertStrings(withSpec(ref), environment+defaultContext)
	if err != nil {
		t.Fatal(err)
	}
	if !root.ContextInObjects || root.Context != "" || root.Component.Ref.Context.BaseURL != "registry.example/from-default" {
		t.Errorf("with a default Context among the objects: %+v %+v", root, root.Component.Ref)
	}
	if w := strings.Join(root.Warnings, "\n"); !strings.Contains(w, "configurations: ignored for a Context given as a manifest") {
		t.Errorf("warnings %q", w)
	}
	root, err = convertStrings(withSpec(ref), environment)
	if err != nil {
		t.Fatal(err)
	}
	if root.ContextInObjects || root.Context != "" || root.Component.Ref.Context.Type != "" {
		t.Errorf("without one: the host's default Context is to give the repository context, got %+v %+v", root, root.Component.Ref)
	}
	// A named Context among the objects wins over the default one.
	named := strings.Replace(defaultContext, "name: default", "name: named", 1)
	named = strings.Replace(named, "from-default", "from-named", 1)
	root, err = convertStrings(withSpec("  context: named\n"+ref), environment+defaultContext+named)
	if err != nil || root.Component.Ref.Context.BaseURL != "registry.example/from-named" {
		t.Errorf("named Context: %v %+v", err, root)
	}
}
