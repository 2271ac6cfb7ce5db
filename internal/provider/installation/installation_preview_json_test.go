package installation

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/provider/shared"
)

// deploy_item_objects is one JSON string of item → object header → lines:
// the same texts give the same bytes whatever the map's order (no
// flapping between plans), keys sorted, YAML's "<", ">" and "&" kept as
// they are, and it reads back as written; a value of neither shape is
// not read.
func TestTextsValue_CanonicalJSON(t *testing.T) {
	in := map[string]string{
		"ns.b/z": "# v1 ConfigMap ns/b\ndata:\n  html: <b>&amp;</b>\n",
		"ns.a/y": "# v1 Secret ns/a\ndata:\n  password: (sensitive value v1)\n",
		"ns.a/x": "",
	}
	var diags diag.Diagnostics
	v := shared.TextsValue(in, &diags)
	if diags.HasError() {
		t.Fatal(diags)
	}
	want := `{"ns.a/x":{},"ns.a/y":{"v1 Secret ns/a":["data:","  password: (sensitive value v1)"]},` +
		`"ns.b/z":{"v1 ConfigMap ns/b":["data:","  html: <b>&amp;</b>"]}}`
	if v.ValueString() != want {
		t.Errorf("textsValue = %s\nwant        %s", v.ValueString(), want)
	}
	for i := 0; i < 20; i++ {
		copied := map[string]string{}
		for k, s := range in {
			copied[k] = s
		}
		if again := shared.TextsValue(copied, &diags); again.ValueString() != want {
			t.Fatalf("textsValue is not stable: %s", again.ValueString())
		}
	}
	got, ok := texts(shared.InstallationModel{DeployItemObjects: v})
	if !ok || len(got) != len(in) {
		t.Fatalf("texts read back %v (%t)", got, ok)
	}
	for k, s := range in {
		if got[k] != s {
			t.Errorf("texts[%q] = %q, want %q", k, got[k], s)
		}
	}
	if empty := shared.TextsValue(nil, &diags); empty.ValueString() != "{}" {
		t.Errorf("textsValue(nil) = %q, want {}", empty.ValueString())
	}
	for _, bad := range []types.String{types.StringNull(), types.StringUnknown(), types.StringValue(`{"a":1}`), types.StringValue(`{"a":{"k":[1]}}`),
		types.StringValue(`["a"]`), types.StringValue(`not json`)} {
		if got, ok := texts(shared.InstallationModel{DeployItemObjects: bad}); ok {
			t.Errorf("texts(%s) = %v, want not read", bad, got)
		}
	}
}
