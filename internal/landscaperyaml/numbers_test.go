package landscaperyaml_test

import (
	"encoding/json"
	"testing"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/landscaperyaml"
)

// TestConvert_BigIntegers: a DataObject's integers reach the imports with
// every digit, beyond int64 too (a float64 rounded them; YAML itself reads integers up to uint64).
func TestConvert_BigIntegers(t *testing.T) {
	inst, err := landscaperyaml.Parse("manifest", `apiVersion: landscaper.gardener.cloud/v1alpha1
kind: Installation
metadata: {name: inst}
spec:
  blueprint:
    inline:
      filesystem:
        blueprint.yaml: |
          apiVersion: landscaper.gardener.cloud/v1alpha1
          kind: Blueprint
          imports:
          - {name: ids, schema: {type: object}}
  imports:
    data:
    - {name: ids, dataRef: ids}
`)
	if err != nil {
		t.Fatal(err)
	}
	objects, err := landscaperyaml.Parse("objects", `apiVersion: landscaper.gardener.cloud/v1alpha1
kind: DataObject
metadata: {name: ids}
data: {small: 9007199254740993, huge: 18446744073709551615, half: 0.5}
`)
	if err != nil {
		t.Fatal(err)
	}
	root, err := landscaperyaml.Convert(inst, objects, "inst", "ns")
	if err != nil {
		t.Fatal(err)
	}
	ids, _ := root.Imports.Data["ids"].(map[string]any)
	if ids["small"] != int64(9007199254740993) {
		t.Errorf("small = %#v", ids["small"])
	}
	if b, err := json.Marshal(ids); err != nil || string(b) != `{"half":0.5,"huge":18446744073709551615,"small":9007199254740993}` {
		t.Errorf("ids = %s (%v)", b, err)
	}
}
