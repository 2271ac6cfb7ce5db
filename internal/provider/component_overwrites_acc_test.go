package provider

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint/component"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint/component/componenttest"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/testsupport/localcluster"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/testsupport/ociregistry"
)

var overwritesResource = schema.GroupVersionResource{Group: "landscaper.gardener.cloud", Version: "v1alpha1", Resource: "componentversionoverwrites"}

// pushOverwriteComponent pushes a component version whose blueprint (a
// local blob) has a subinstallation per reference, or, without
// references, one mock item.
func pushOverwriteComponent(t *testing.T, rc component.RepositorySpec, name, version string, refs ...string) {
	t.Helper()
	body := "deployExecutions:\n- name: main\n  type: GoTemplate\n  template: |\n    deployItems:\n    - {name: state, type: landscaper.gardener.cloud/mock, config: {version: " + version + "}}\n"
	var refYAML []string
	if len(refs) > 0 {
		body = "subinstallations:\n"
	}
	for _, r := range refs {
		local, target, _ := strings.Cut(r, "=")
		cname, cversion, _ := strings.Cut(target, ":")
		refYAML = append(refYAML, fmt.Sprintf("{name: %s, componentName: %s, version: %s}", local, cname, cversion))
		body += fmt.Sprintf("- {apiVersion: landscaper.gardener.cloud/v1alpha1, kind: InstallationTemplate, name: %s, blueprint: {ref: 'cd://componentReferences/%s/resources/blueprint'}}\n", local, local)
	}
	bp, err := componenttest.TarGz(map[string]string{"blueprint.yaml": "apiVersion: landscaper.gardener.cloud/v1alpha1\nkind: Blueprint\n" + body})
	if err != nil {
		t.Fatal(err)
	}
	_, err = componenttest.PushVersion(context.Background(), componenttest.Remote("", ""), rc, name, version, componenttest.Version{
		Descriptor: fmt.Sprintf(`meta: {schemaVersion: v2}
component:
  name: %s
  version: %s
  provider: internal
  repositoryContexts: [{type: ociRegistry, baseUrl: %q, componentNameMapping: urlPath}]
  sources: []
  componentReferences: [%s]
  resources:
  - {name: blueprint, version: %s, type: landscaper.gardener.cloud/blueprint, relation: local,
     access: {type: localBlob, localReference: %q, mediaType: %s}}
`, name, version, rc.BaseURL, strings.Join(refYAML, ", "), version, componenttest.Digest(bp), mediaTypeBlueprint),
		Blobs: []componenttest.Layer{{MediaType: mediaTypeBlueprint, Data: bp}},
	})
	if err != nil {
		t.Fatal(err)
	}
}

// The namespace's default Context names ComponentVersionOverwrites on the
// host cluster: the installation's component references resolve to the
// substitute, directly and through another component, as in Landscaper;
// the digests record the substitute, never the overwritten version.
func TestAccInstallation_componentVersionOverwrites(t *testing.T) {
	e := newAccEnv(t)
	dyn, err := dynamic.NewForConfig(localcluster.RESTConfig(t))
	if err != nil {
		t.Fatal(err)
	}
	installContextCRD(t, dyn)
	installLandscaperCRD(t, dyn, "ComponentVersionOverwrites", "componentversionoverwrites", "componentversionoverwrite")
	reg := ociregistry.Start(t, ociregistry.Options{})
	rc := component.RepositorySpec{Type: "ociRegistry", BaseURL: reg.Host() + "/overwrites", ComponentNameMapping: "urlPath"}
	pushOverwriteComponent(t, rc, "example.com/referenced", "v0.1.0")
	pushOverwriteComponent(t, rc, "example.com/referenced", "v1.2.3")
	pushOverwriteComponent(t, rc, "example.com/intermediate", "v0.1.0", "referenced=example.com/referenced:v0.1.0")
	pushOverwriteComponent(t, rc, "example.com/source", "v0.1.0", "intermediate=example.com/intermediate:v0.1.0", "referenced=example.com/referenced:v0.1.0")
	ctx := context.Background()
	for res, obj := range map[schema.GroupVersionResource]map[string]any{
		contextResource: {"kind": "Context", "metadata": map[string]any{"name": "default"},
			"repositoryContext":          map[string]any{"type": "ociRegistry", "baseUrl": rc.BaseURL},
			"componentVersionOverwrites": "cvo"},
		overwritesResource: {"kind": "ComponentVersionOverwrites", "metadata": map[string]any{"name": "cvo"},
			"overwrites": []any{map[string]any{
				"source":       map[string]any{"componentName": "example.com/referenced", "version": "v0.1.0"},
				"substitution": map[string]any{"version": "v1.2.3"},
			}}},
	} {
		obj["apiVersion"] = "landscaper.gardener.cloud/v1alpha1"
		if _, err := dyn.Resource(res).Namespace(e.namespace).Create(ctx, &unstructured.Unstructured{Object: obj}, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	inst := "landscaper_installation.source"
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviders,
		Steps: []resource.TestStep{{
			Config: fmt.Sprintf(`
provider "landscaper" {
  kubernetes = { config_path = %q }
  registry   = { cache_dir = %q }
}

resource "landscaper_installation" "source" {
  name                 = "source"
  namespace            = %q
  component_descriptor = { ref = { component_name = "example.com/source", version = "v0.1.0" } }
  blueprint            = { ref = { resource_name = "blueprint" } }
}
`, localcluster.KubeconfigPath(t), t.TempDir(), e.namespace),
			Check: resource.ComposeAggregateTestCheckFunc(
				resource.TestCheckResourceAttr(inst, "phase", "Succeeded"),
				resource.TestCheckResourceAttrSet(inst, "deploy_items."+e.namespace+".source/intermediate/referenced/state"),
				resource.TestCheckResourceAttrSet(inst, "deploy_items."+e.namespace+".source/referenced/state"),
				resource.TestCheckResourceAttr(inst, "component_digests.%", "3"),
				resource.TestCheckResourceAttrSet(inst, "component_digests.example.com/referenced:v1.2.3"),
				resource.TestCheckNoResourceAttr(inst, "component_digests.example.com/referenced:v0.1.0"),
			),
		}},
	})
}
