package blueprint

import (
	"reflect"
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
