package provider

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint/component"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/landscaperyaml"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/provider/shared"
)

// unconfigured is the provider data before Configure ran: nothing is read
// from a cluster or a registry.
var unconfigured *shared.ProviderData

const manifestTestObjects = `apiVersion: landscaper.gardener.cloud/v1alpha1
kind: Target
metadata: {name: local-cluster}
spec:
  type: landscaper.gardener.cloud/kubernetes-cluster
  config: {kubeconfig: "apiVersion: v1\nkind: Config\n"}
---
apiVersion: landscaper.gardener.cloud/v1alpha1
kind: DataObject
metadata: {name: target-namespace}
data: shop
`

func manifestModel(t *testing.T, file, objects string) shared.InstallationModel {
	t.Helper()
	manifest, err := os.ReadFile(filepath.Join(landscaperYAMLExample(t), "manifests", file))
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(landscaperYAMLExample(t), "manifests", "data.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	name := strings.TrimSuffix(file, ".yaml")
	return shared.InstallationModel{Name: types.StringValue(name), Namespace: types.StringValue("default"),
		Manifest: types.StringValue(string(manifest)), ManifestObjects: types.StringValue(string(data) + "---\n" + objects)}
}

// The attributes built from a manifest read back, through the HCL form's
// own readers, as exactly what the manifest means.
func TestRootSpec_ManifestReadsLikeItsTranslation(t *testing.T) {
	ctx := context.Background()
	for _, file := range []string{"web-config.yaml", "tree.yaml"} {
		m := manifestModel(t, file, manifestTestObjects)
		spec, err := shared.RootSpec(ctx, unconfigured.Inputs(component.Pins{}), m)
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		inst, _ := landscaperyaml.Parse("manifest", m.Manifest.ValueString())
		objs, _ := landscaperyaml.Parse("manifest_objects", m.ManifestObjects.ValueString())
		root, err := landscaperyaml.Convert(inst, objs, m.Name.ValueString(), "default")
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(spec.Imports, root.Imports) {
			t.Errorf("%s: imports\n%+v\nwant\n%+v", file, spec.Imports, root.Imports)
		}
		for _, pair := range [][2]map[string]json.RawMessage{{spec.ImportDataMappings, root.ImportDataMappings}, {spec.ExportDataMappings, root.ExportDataMappings}} {
			if !sameJSONValues(pair[0], pair[1]) {
				t.Errorf("%s: mappings %s, want %s", file, pair[0], pair[1])
			}
		}
		if spec.Name != m.Name.ValueString() || spec.Blueprint == nil {
			t.Errorf("%s: %+v", file, spec)
		}
	}
}

func sameJSONValues(a, b map[string]json.RawMessage) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		var x, y any
		if json.Unmarshal(v, &x) != nil || json.Unmarshal(b[k], &y) != nil || !reflect.DeepEqual(x, y) {
			return false
		}
	}
	return true
}

// Secret and ConfigMap imports of a manifest are read at apply, like
// imports.secrets; plans do not need the host cluster.
func TestRootSpec_ManifestHostImportsWaitForApply(t *testing.T) {
	m := manifestModel(t, "web-config.yaml", manifestTestObjects)
	m.Manifest = types.StringValue(strings.Replace(m.Manifest.ValueString(), "      dataRef: web-settings",
		"      secretRef: {name: web-settings, key: settings}", 1))
	if _, err := shared.RootSpec(context.Background(), unconfigured.Inputs(component.Pins{}), m); !errors.Is(err, shared.ErrHostImportsAtPlan) {
		t.Fatalf("got %v", err)
	}
	hcl, _, err := shared.HclForm(context.Background(), m, nil)
	if err != nil {
		t.Fatal(err)
	}
	var im shared.ImportsModel
	if _, err := shared.AsObject(context.Background(), hcl.Imports, &im, path.Root("imports")); err != nil || len(im.Secrets.Elements()) != 1 {
		t.Fatalf("secrets %v %v", im.Secrets, err)
	}
}

// A manifest that cannot be translated is an error on manifest (or on
// manifest_objects for the objects' own errors); unknown values wait.
func TestHCLForm_Errors(t *testing.T) {
	ctx := context.Background()
	m := manifestModel(t, "web-config.yaml", manifestTestObjects)
	m.Name = types.StringValue("other")
	_, _, err := shared.HclForm(ctx, m, nil)
	if ie, ok := shared.AsInputError(err); !ok || ie.Path.String() != "manifest" || !strings.Contains(err.Error(), `metadata.name: is "web-config"`) {
		t.Errorf("name mismatch: %v", err)
	}
	m = manifestModel(t, "web-config.yaml", "kind: [")
	if _, _, err = shared.HclForm(ctx, m, nil); err == nil {
		t.Error("broken manifest_objects accepted")
	} else if ie, ok := shared.AsInputError(err); !ok || ie.Path.String() != "manifest_objects" {
		t.Errorf("broken objects: %v", err)
	}
	m.ManifestObjects = types.StringUnknown()
	if _, _, err = shared.HclForm(ctx, m, nil); !errors.Is(err, shared.ErrUnknownValue) {
		t.Errorf("unknown objects: %v", err)
	}
	m = manifestModel(t, "web-config.yaml", manifestTestObjects)
	m.Manifest = types.StringValue(strings.Replace(m.Manifest.ValueString(), "reconcile", "reconcile\n    landscaper.gardener.cloud/delete-without-uninstall: \"true\"", 1))
	if !shared.ManifestDeletesWithoutUninstall(m) {
		t.Error("delete-without-uninstall annotation not seen")
	}
}
