package shared

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"math/big"
	"strconv"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-log/tflogtest"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine/snapshot"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/preview"
)

// The canaries: one of each kind a Secret import may hold (a string, one
// with characters JSON escapes, a number, a boolean) and a write-only
// string, registered as the provider registers them.
const (
	canaryString = "c4nary-Str1ng-value"
	canaryQuoted = `c4n"ary\quoted`
	canaryNumber = 73920184
	canaryWO     = "w0-canary-write-only"
)

func canarySecurity() *Security {
	s := &Security{}
	s.Secrets.AddValueAt("creds", map[string]any{"password": canaryString, "q": canaryQuoted, "pin": float64(canaryNumber)})
	s.Secrets.AddValueAt("flags", map[string]any{"canaryOn": true})
	s.Secrets.AddWriteOnly(map[string]any{"token": canaryWO})
	return s
}

// canaryForms are the texts a leak would show: each canary in decimal,
// quoted (as JSON writes it) and base64 form.
func canaryForms() []string {
	b64 := func(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }
	q, _ := json.Marshal(canaryQuoted)
	return []string{canaryString, b64(canaryString), string(q[1 : len(q)-1]), b64(canaryQuoted),
		"73920184", "7.3920184e+07", b64("73920184"), canaryWO, b64(canaryWO)}
}

// canaryText holds every canary form, as an error or a value would.
func canaryText() string { return strings.Join(canaryForms(), " | ") }

func assertNoCanary(t *testing.T, exit, out string) {
	t.Helper()
	for _, f := range canaryForms() {
		if strings.Contains(out, f) {
			t.Errorf("%s leaks %q:\n%s", exit, f, out)
		}
	}
}

// Every exit of exit.go (and the diagnostics and logs) is fed every
// canary in every form; none may come out (issue 32 item 2).
func TestExits_NoCanaryLeaves(t *testing.T) {
	ctx := context.Background()
	sec := canarySecurity()

	t.Run("diagnostics", func(t *testing.T) {
		var diags diag.Diagnostics
		AddError(&diags, sec, "Failed", errors.New(canaryText()))
		AddWarning(&diags, sec, "Warned", AttrErr(path.Root("imports"), errors.New(canaryText())))
		for _, d := range diags {
			assertNoCanary(t, "diagnostic "+d.Summary(), d.Detail())
		}
	})

	t.Run("logs", func(t *testing.T) {
		var buf bytes.Buffer
		lctx := tflogtest.RootLogger(ctx, &buf)
		tflogLogger{ctx: lctx, sec: sec}.Info(canaryText(), "error", errors.New(canaryText()), "text", canaryText())
		sec.Warn(lctx, canaryText())
		if buf.Len() == 0 {
			t.Fatal("nothing logged: the exit was not taken")
		}
		assertNoCanary(t, "log", buf.String())
	})

	t.Run("state, plan and list results", func(t *testing.T) {
		for name, set := range map[string]func(*Security, canaryModel) (tftypes.Value, diag.Diagnostics){
			"SetState": func(s *Security, m canaryModel) (tftypes.Value, diag.Diagnostics) {
				st := tfsdk.State{Schema: canarySchema(), Raw: tftypes.NewValue(canarySchema().Type().TerraformType(ctx), nil)}
				d := s.SetState(ctx, &st, &m)
				return st.Raw, d
			},
			"SetPlan": func(s *Security, m canaryModel) (tftypes.Value, diag.Diagnostics) {
				pl := tfsdk.Plan{Schema: canarySchema(), Raw: tftypes.NewValue(canarySchema().Type().TerraformType(ctx), nil)}
				d := s.SetPlan(ctx, &pl, &m)
				return pl.Raw, d
			},
			"SetResult": func(s *Security, m canaryModel) (tftypes.Value, diag.Diagnostics) {
				r := tfsdk.Resource{Schema: canarySchema(), Raw: tftypes.NewValue(canarySchema().Type().TerraformType(ctx), nil)}
				d := s.SetResult(ctx, &r, &m)
				return r.Raw, d
			},
			"SetStateAttribute": func(s *Security, m canaryModel) (tftypes.Value, diag.Diagnostics) {
				st := tfsdk.State{Schema: canarySchema(), Raw: tftypes.NewValue(canarySchema().Type().TerraformType(ctx), nil)}
				d := s.SetState(ctx, &st, &m)
				d.Append(s.SetStateAttribute(ctx, &st, path.Root("deploy_item_objects"), canaryText())...)
				return st.Raw, d
			},
		} {
			t.Run(name, func(t *testing.T) {
				raw, d := set(sec, newCanaryModel(t))
				if d.HasError() {
					t.Fatal(d)
				}
				var values map[string]tftypes.Value
				if err := raw.As(&values); err != nil {
					t.Fatal(err)
				}
				// The configuration's own value and the sensitive one come back
				// as they were sent: Terraform refuses a provider that changes
				// them, and shows neither as plain text.
				for _, kept := range []string{"name", "sensitive_export_values"} {
					if !strings.Contains(values[kept].String(), canaryString) {
						t.Errorf("%s was changed: %s", kept, values[kept])
					}
				}
				for _, masked := range []string{"deploy_item_errors", "deploy_item_objects", "exports", "flag_exports", "number_exports"} {
					assertNoCanary(t, name+" "+masked, values[masked].String())
					if strings.Contains(values[masked].String(), "canaryOn") && strings.Contains(values[masked].String(), "true") {
						t.Errorf("%s %s shows the sensitive boolean: %s", name, masked, values[masked])
					}
				}
				// Without the registry nothing is masked: the test sees the canaries.
				plain, _ := set(nil, newCanaryModel(t))
				if !strings.Contains(plain.String(), canaryString) || !strings.Contains(plain.String(), "73920184") {
					t.Errorf("the canaries never reached %s: %s", name, plain)
				}
			})
		}
	})

	t.Run("the installation's attributes", func(t *testing.T) {
		var resp resource.SchemaResponse
		SchemaOfInstallation(ctx, &resp)
		masked := maskedAttributes(resp.Schema.GetAttributes())
		for _, name := range []string{"deploy_item_errors", "deploy_item_objects", "deploy_items", "exports", "phase", "id"} {
			if !masked[name] {
				t.Errorf("%s is not masked", name)
			}
		}
		for _, name := range []string{"imports", "name", "sensitive_export_values", "target_exports", "reconcile_key"} {
			if masked[name] {
				t.Errorf("%s is masked: the configuration's values and sensitive ones must stay", name)
			}
		}
	})

	t.Run("private state", func(t *testing.T) {
		for _, packed := range []bool{false, true} {
			p := fakePrivate{}
			raw, _ := json.Marshal(map[string]any{"config": canaryText(), "n": canaryNumber})
			if d := sec.SetPrivate(ctx, p, "k", raw, packed); d.HasError() {
				t.Fatal(d)
			}
			got := p["k"]
			if packed {
				var err error
				if got, err = UnpackSnapshot(got, MaxSnapshotBytes); err != nil {
					t.Fatal(err)
				}
			}
			// Write-only values go; other secrets stay (destroy and drift
			// read them, and the state file is sensitive).
			if bytes.Contains(got, []byte(canaryWO)) || bytes.Contains(got, []byte(base64.StdEncoding.EncodeToString([]byte(canaryWO)))) {
				t.Errorf("private state (packed %v) keeps the write-only value: %s", packed, got)
			}
			if !bytes.Contains(got, []byte(canaryString)) {
				t.Errorf("private state (packed %v) lost a kept value: %s", packed, got)
			}
		}
	})

	t.Run("what a job keeps", func(t *testing.T) {
		snap := canarySnapshot()
		sec.MaskSnapshot(snap)
		b, err := snapshot.Marshal(snap)
		if err != nil {
			t.Fatal(err)
		}
		in := snap.Root
		for what, e := range map[string]*snapshot.Error{"installation": in.LastError, "execution": in.Execution.LastError,
			"deploy item": in.Execution.DeployItems[0].LastError} {
			assertNoCanary(t, what+" error", e.Message+" "+e.Reason)
		}
		if bytes.Contains(b, []byte(canaryWO)) {
			t.Errorf("the private snapshot holds the write-only value: %s", b)
		}
		// What the inventory keeps: no secret in exports or state either.
		kept := canarySnapshot()
		kept.Root.Exports = map[string]any{"all": canaryText()}
		kept.Root.State = map[string]json.RawMessage{"main": json.RawMessage(`{"s":` + strconvQuote(canaryText()) + `}`)}
		// An item's exports, and its configuration, which what is kept
		// holds when write-only values were masked in it.
		item := kept.Root.Execution.DeployItems[0]
		item.Exports = map[string]any{"all": canaryText()}
		item.Config = json.RawMessage(`{"wo":` + strconvQuote(canaryWO) + `,"s":` + strconvQuote(canaryText()) + `}`)
		sec.MaskKept(kept)
		if b, err = snapshot.Marshal(kept); err != nil {
			t.Fatal(err)
		}
		assertNoCanary(t, "the inventory's kept snapshot", string(b))
	})

	t.Run("inventory configurations", func(t *testing.T) {
		// The inventory seals a configuration holding any form of a
		// secret (inventory/seal.go), and keeps the others readable.
		for name, raw := range map[string]string{
			"string": `{"s":` + strconvQuote(canaryText()) + `}`, "number": `{"pods":` + strconv.Itoa(canaryNumber) + `}`,
			"base64": `{"b":"` + base64.StdEncoding.EncodeToString([]byte(canaryString)) + `"}`, "write-only": `{"w":"` + canaryWO + `"}`,
			"url": `{"repo":"https://u:p4ss@charts.example/x"}`,
		} {
			if !sec.ConfigHoldsSecret(json.RawMessage(raw)) {
				t.Errorf("a configuration holding the %s canary is not sealed: %s", name, raw)
			}
		}
		if sec.ConfigHoldsSecret(json.RawMessage(`{"data":{"a":"not-secret"}}`)) {
			t.Error("a configuration without a secret is sealed")
		}
	})

	t.Run("deploy_item_objects", func(t *testing.T) {
		var sensitive preview.Sensitive
		sensitive.Add(sec.Secrets.Values()...)
		sensitive.AddBoolPaths(sec.Secrets.BoolPaths()...)
		texts, err := preview.NewRenderer(nil, &sensitive).Item("app/main", []deployer.PreviewObject{{Object: map[string]any{
			"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": "c"},
			"data": map[string]any{"all": canaryText(), "pin": float64(canaryNumber),
				"flags": map[string]any{"canaryOn": true}, "other": map[string]any{"enabled": true}},
		}}})
		if err != nil {
			t.Fatal(err)
		}
		text := preview.Join("", texts)
		assertNoCanary(t, "deploy_item_objects", text)
		if strings.Contains(text, "canaryOn: true") {
			t.Errorf("the sensitive boolean is shown:\n%s", text)
		}
		if !strings.Contains(text, "enabled: true") {
			t.Errorf("a boolean at another path is masked too (every true would go):\n%s", text)
		}
	})

	t.Run("exports", func(t *testing.T) {
		for name, v := range map[string]any{
			"string": "x " + canaryString, "quoted": canaryQuoted, "base64": base64.StdEncoding.EncodeToString([]byte(canaryString)),
			"number": float64(canaryNumber), "write-only": canaryWO, "url": "https://u:p4ss@db.example/x",
			"flags": map[string]any{"canaryOn": true},
		} {
			if !sec.HoldsSecret(name, v) {
				t.Errorf("export %s (%v) is not sensitive by its value", name, v)
			}
		}
		if sec.HoldsSecret("enabled", true) || sec.HoldsSecret("flags", map[string]any{"other": true}) {
			t.Error("a boolean at another path is sensitive: every true would be")
		}
	})
}

func strconvQuote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

type canaryModel struct {
	Name              types.String  `tfsdk:"name"`
	DeployItemErrors  types.Map     `tfsdk:"deploy_item_errors"`
	DeployItemObjects types.String  `tfsdk:"deploy_item_objects"`
	Exports           types.Dynamic `tfsdk:"exports"`
	FlagExports       types.Dynamic `tfsdk:"flag_exports"`
	NumberExports     types.Map     `tfsdk:"number_exports"`
	SensitiveExports  types.Dynamic `tfsdk:"sensitive_export_values"`
}

// canarySchema has an attribute of each kind the installation has: the
// configuration's own, computed ones (text, map, dynamic) and a
// sensitive one.
func canarySchema() schema.Schema {
	return schema.Schema{Attributes: map[string]schema.Attribute{
		"name":                    schema.StringAttribute{Required: true},
		"deploy_item_errors":      schema.MapAttribute{Computed: true, ElementType: types.StringType},
		"deploy_item_objects":     schema.StringAttribute{Computed: true},
		"exports":                 schema.DynamicAttribute{Computed: true},
		"flag_exports":            schema.DynamicAttribute{Computed: true},
		"number_exports":          schema.MapAttribute{Computed: true, ElementType: types.NumberType},
		"sensitive_export_values": schema.DynamicAttribute{Computed: true, Sensitive: true},
	}}
}

func newCanaryModel(t *testing.T) canaryModel {
	t.Helper()
	text := types.StringValue(canaryText())
	flags := types.ObjectValueMust(map[string]attr.Type{"canaryOn": types.BoolType}, map[string]attr.Value{"canaryOn": types.BoolValue(true)})
	return canaryModel{
		Name:              types.StringValue(canaryString),
		DeployItemErrors:  types.MapValueMust(types.StringType, map[string]attr.Value{"app/main": text}),
		DeployItemObjects: text,
		Exports:           types.DynamicValue(types.ObjectValueMust(map[string]attr.Type{"s": types.StringType}, map[string]attr.Value{"s": text})),
		FlagExports:       types.DynamicValue(types.ObjectValueMust(map[string]attr.Type{"flags": flags.Type(context.Background())}, map[string]attr.Value{"flags": flags})),
		NumberExports:     types.MapValueMust(types.NumberType, map[string]attr.Value{"pin": types.NumberValue(big.NewFloat(canaryNumber))}),
		SensitiveExports:  types.DynamicValue(text),
	}
}

func canarySnapshot() *engine.Snapshot {
	e := func() *snapshot.Error { return &snapshot.Error{Message: canaryText(), Reason: canaryWO} }
	it := &snapshot.DeployItem{Name: "main", LastError: e(), Config: json.RawMessage(`{"token":"` + canaryWO + `"}`)}
	root := &snapshot.Installation{Path: "app", LastError: e(), Execution: &snapshot.Execution{LastError: e(), DeployItems: []*snapshot.DeployItem{it}},
		Exports: map[string]any{"t": canaryWO}}
	return &engine.Snapshot{Root: root}
}
