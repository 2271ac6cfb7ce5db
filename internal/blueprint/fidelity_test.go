package blueprint

import "testing"

// Golden suites for behaviour that must match Landscaper's controller
// (see docs/guides/landscaper-installation-mapping.md, "Compatibility").

// TestRender_UnnamedExecutions: executions without a name render, and
// their state is kept under the execution kind alone.
func TestRender_UnnamedExecutions(t *testing.T) { runGoldenSuite(t, "unnamed-executions") }

// TestRender_SchemaFragments: `$ref` fragments without a leading slash
// resolve to their whole document with a warning, as gojsonschema does.
func TestRender_SchemaFragments(t *testing.T) { runGoldenSuite(t, "schema-fragments") }

// TestRenderExports_Context: export executions see the installation's own
// imports in .dataobjects / .targets, and their outputs deep-merge.
func TestRenderExports_Context(t *testing.T) { runGoldenSuite(t, "export-context") }

// TestRender_DeployItemTargets: a deploy item's target index or key must
// exist in the imported list or map when rendering, not only at apply.
func TestRender_DeployItemTargets(t *testing.T) { runGoldenSuite(t, "deploy-item-targets") }

// TestRender_ClusterFunctions: getOidcKubeconfig works everywhere; the
// token functions need an export execution; Gardener's are unsupported.
func TestRender_ClusterFunctions(t *testing.T) { runGoldenSuite(t, "cluster-functions") }

// TestRender_Unsupported: what stays unsupported fails with a message
// naming the execution or subinstallation and the feature.
func TestRender_Unsupported(t *testing.T) { runGoldenSuite(t, "unsupported") }
