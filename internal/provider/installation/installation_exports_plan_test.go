package installation

import (
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/provider/shared"
)

// An apply whose exports are not what the plan showed as known is an
// error naming the exports and never their values; exports planned
// unknown may come out as anything.
func TestCheckPlannedExports(t *testing.T) {
	planned := func(known map[string]any, unknown ...string) types.Dynamic {
		v, err := shared.PartlyKnownValue(known, unknown)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	applied := func(v map[string]any) types.Dynamic {
		d, err := shared.DynamicValue(v)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	empty := planned(map[string]any{})
	for _, c := range []struct {
		name                string
		plan, got           types.Dynamic
		secretPlan, secrets types.Dynamic
		want                string
	}{
		{"as planned", planned(map[string]any{"url": "http://a:1"}, "ip"), applied(map[string]any{"url": "http://a:1", "ip": "10.0.0.1"}), empty, applied(map[string]any{}), ""},
		{"a value changed", planned(map[string]any{"url": "http://a:1"}), applied(map[string]any{"url": "http://b:2"}), empty, applied(map[string]any{}), `export "url"`},
		{"an export added", planned(map[string]any{"url": "http://a:1"}), applied(map[string]any{"url": "http://a:1", "x": "y"}), empty, applied(map[string]any{}), `export "x" (not planned)`},
		{"an unknown moved to the sensitive ones", planned(map[string]any{}, "token"), applied(map[string]any{}),
			empty, applied(map[string]any{"token": "s3cr3t-value"}), `export "token"`},
		{"wholly unknown", types.DynamicUnknown(), applied(map[string]any{"url": "x"}), types.DynamicUnknown(), applied(map[string]any{}), ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			var diags diag.Diagnostics
			checkPlannedExports(shared.InstallationModel{Exports: c.plan, SensitiveExportValues: c.secretPlan},
				shared.InstallationModel{Exports: c.got, SensitiveExportValues: c.secrets}, nil, &diags)
			text := ""
			for _, d := range diags.Errors() {
				text += d.Summary() + ": " + d.Detail()
			}
			switch {
			case c.want == "" && diags.HasError():
				t.Errorf("unexpected error: %s", text)
			case c.want != "" && !strings.Contains(text, c.want):
				t.Errorf("error %q, want it to name %s", text, c.want)
			case strings.Contains(text, "s3cr3t") || strings.Contains(text, "http://b"):
				t.Errorf("the error shows a value: %s", text)
			}
		})
	}
}
