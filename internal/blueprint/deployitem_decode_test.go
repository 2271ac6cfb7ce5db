package blueprint

import (
	"reflect"
	"strings"
	"testing"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint/template"
)

// decodeDeployItem must read every rendered item as remarshal does, which
// is encoding/json's reading: the same fields, the same config bytes, the
// same errors.
func TestDecodeDeployItem_AsRemarshal(t *testing.T) {
	for _, in := range []string{
		`{"name":"a","type":"t","config":{"b":1,"a":[1.5,"<x>",null]}}`,
		`{"name":"a","type":"t"}`,
		`{"name":"a","config":null}`,
		`{"name":"a","config":"text"}`,
		`{"name":"a","config":12345678901234567890123}`,
		`{"Name":"a","Config":{"x":1},"config":{"y":2},"CONFIG":{"z":3}}`,
		`{"name":"a","Config":{"x":1}}`,
		`{"name":"a","configs":{"x":1},"dependsOn":["b"],"target":{"import":"c","index":0}}`,
		`{"name":1,"config":{}}`,
		`{"name":"a","timeout":"5m","updateOnChangeOnly":true,"labels":{"k":"v"},"config":[]}`,
		`{"name":"a","timeout":"five","config":{}}`,
		`["not","an","object"]`,
		`"scalar"`,
		`null`,
	} {
		var elem any
		if err := template.DecodeJSON([]byte(in), &elem); err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		var want, got api.DeployItemTemplate
		wantErr := remarshal(elem, &want)
		gotErr := decodeDeployItem(elem, &got)
		if (wantErr == nil) != (gotErr == nil) {
			t.Errorf("%s: error %v, remarshal's %v", in, gotErr, wantErr)
			continue
		}
		if wantErr != nil {
			continue
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s:\n got %+v config %s\nwant %+v config %s", in, got, got.Config, want, want.Config)
		}
	}
}

// FuzzDecodeDeployItem holds decodeDeployItem to remarshal on any JSON item.
func FuzzDecodeDeployItem(f *testing.F) {
	f.Add([]byte(`{"name":"a","type":"t","config":{"b":1}}`))
	f.Add([]byte(`{"cOnFiG":{"x":1},"config":null,"dependsOn":["x"]}`))
	f.Fuzz(func(t *testing.T, in []byte) {
		var elem any
		if template.DecodeJSON(in, &elem) != nil {
			return
		}
		var want, got api.DeployItemTemplate
		wantErr := remarshal(elem, &want)
		gotErr := decodeDeployItem(elem, &got)
		if (wantErr == nil) != (gotErr == nil) {
			t.Fatalf("%s: error %v, remarshal's %v", in, gotErr, wantErr)
		}
		if wantErr == nil && !reflect.DeepEqual(got, want) {
			t.Fatalf("%s:\n got %+v config %s\nwant %+v config %s", in, got, got.Config, want, want.Config)
		}
	})
}

// TestDecodeDeployItems_OnDelete: Landscaper's onDelete block is a known
// field of a deploy item template (no unknown-field warning); its
// skipUninstallIfClusterRemoved, which needs Landscaper's TargetSync, is
// a warning naming the item's path, the execution and its file, and the
// alternative.
func TestDecodeDeployItems_OnDelete(t *testing.T) {
	var list any
	if err := template.DecodeJSON([]byte(`[{"name":"a","type":"t","config":{},"onDelete":{"skipUninstallIfClusterRemoved":true}},
		{"name":"b","type":"t","config":{},"onDelete":{}}]`), &list); err != nil {
		t.Fatal(err)
	}
	items, warnings, err := decodeDeployItems(template.Execution{Name: "main", File: "deploy.yaml"}, list)
	if err != nil {
		t.Fatal(err)
	}
	if len(items) != 2 || items[0].OnDelete == nil || !items[0].OnDelete.SkipUninstallIfClusterRemoved {
		t.Fatalf("items %+v: onDelete not decoded", items)
	}
	want := `deploy execution "main" (deploy.yaml): deployItems[0].onDelete.skipUninstallIfClusterRemoved: has no effect here: `
	if len(warnings) != 1 || !strings.HasPrefix(warnings[0], want) || !strings.Contains(warnings[0], "delete_without_uninstall") {
		t.Fatalf("warnings %q, want one starting %q and naming delete_without_uninstall", warnings, want)
	}
}
