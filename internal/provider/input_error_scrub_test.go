package provider

import (
	"context"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/hostaccess"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/provider/datasources"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/provider/installation"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/provider/shared"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/target"
)

// The secret the tests' provider knows (as it knows a Secret import's
// value or a kubeconfig's token), and a blueprint whose template fails
// with an error that quotes it.
const knownSecret = "s3cr3t-only-the-provider-knows"

const failingBlueprint = `apiVersion: landscaper.gardener.cloud/v1alpha1
kind: Blueprint
imports:
- {name: password, schema: {type: string}}
deployExecutions:
- name: main
  type: GoTemplate
  template: |
    {{ fail .imports.password }}
`

// Before errors had one room, nine paths scrubbed secrets by hand on the
// way to a diagnostic (and renderTree added its error itself). Each is
// driven here through the resource's or data source's own method with an
// error that holds a secret the provider knows; no diagnostic may show it.
// (Refresh and the import from Landscaper need private state or a
// Landscaper host: TestDiagnostics_OnlyThroughAddError keeps them, and
// every other path, on addError and addWarning.)
func TestDiagnostics_NoSecretInErrorReachesThem(t *testing.T) {
	data := func() *shared.ProviderData {
		d := shared.NewProviderData("test", hostaccess.HostSettings{}, nil, shared.SecuritySettings{}, shared.Tuning{})
		d.Security.Secrets.Add(knownSecret)
		return d
	}
	inline := map[string]any{"blueprint.yaml": failingBlueprint}
	missingDir := filepath.Join(t.TempDir(), knownSecret)
	unreachableHost := data()
	unreachableHost.Host = &hostaccess.HostCluster{Settings: target.HostSettings{Configured: true, Host: "https://127.0.0.1:1"}}

	for _, c := range []struct {
		name    string
		summary string // the diagnostic the path must make
		run     func(*testing.T) diag.Diagnostics
	}{
		{"plan: render error", "Invalid Installation", func(t *testing.T) diag.Diagnostics {
			return modifyPlan(t, data(), map[string]any{"blueprint.inline": inline, "imports.data": knownSecret})
		}},
		{"plan: configuration error", "Invalid Installation", func(t *testing.T) diag.Diagnostics {
			return modifyPlan(t, data(), map[string]any{"blueprint.path": missingDir})
		}},
		{"plan: Secret import not readable", "Import Not Read At Plan", func(t *testing.T) diag.Diagnostics {
			return modifyPlan(t, unreachableHost, map[string]any{"blueprint.inline": inline, "imports.secrets": knownSecret})
		}},
		{"apply: job error", "Installation Failed", func(t *testing.T) diag.Diagnostics {
			return create(t, data(), map[string]any{"blueprint.inline": inline, "imports.data": knownSecret})
		}},
		{"apply: configuration error", "Cannot Install", func(t *testing.T) diag.Diagnostics {
			return create(t, data(), map[string]any{"blueprint.path": missingDir})
		}},
		{"destroy: snapshot lost", "Delete Failed", func(t *testing.T) diag.Diagnostics {
			return destroy(t, data(), map[string]any{"deploy_items": knownSecret})
		}},
		{"rendered installation: render error", "Invalid Installation", func(t *testing.T) diag.Diagnostics {
			return readRendered(t, data(), map[string]any{"blueprint.inline": inline, "imports.data": knownSecret})
		}},
		{"rendered installation: configuration error", "Invalid Installation", func(t *testing.T) diag.Diagnostics {
			return readRendered(t, data(), map[string]any{"blueprint.path": missingDir})
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			diags := c.run(t)
			found := false
			for _, d := range diags {
				found = found || d.Summary() == c.summary
				if strings.Contains(d.Summary()+d.Detail(), knownSecret) {
					t.Errorf("diagnostic %q shows the secret: %s", d.Summary(), d.Detail())
				}
			}
			if !found {
				t.Errorf("no %q diagnostic: %v", c.summary, diags)
			}
		})
	}
}

// set gives the attributes a test configures: "blueprint.inline" (files),
// "blueprint.path", "imports.data" (the value of a data import
// "password"), "imports.secrets" (a Secret import reading the Secret of
// that name), "deploy_items" (one deploy item of that name recorded in
// state).
func configure(t *testing.T, s *tfsdk.State, set map[string]any) {
	t.Helper()
	ctx := context.Background()
	type attribute struct {
		p path.Path
		v any
	}
	attrs := []attribute{{path.Root("name"), "app"}, {path.Root("namespace"), "default"}}
	for k, v := range set {
		switch k {
		case "imports.data":
			attrs = append(attrs, attribute{path.Root("imports").AtName("data"), types.DynamicValue(types.ObjectValueMust(
				map[string]attr.Type{"password": types.StringType}, map[string]attr.Value{"password": types.StringValue(v.(string))}))})
		case "imports.secrets":
			attrs = append(attrs, attribute{path.Root("imports").AtName("secrets"), map[string]shared.ObjectRefModel{"password": {
				Name: types.StringValue(v.(string)), Namespace: types.StringValue("default"), Key: types.StringNull()}}})
		case "deploy_items":
			attrs = append(attrs, attribute{path.Root("phase"), "Succeeded"},
				attribute{path.Root("deploy_items"), map[string]string{"app/" + v.(string): "hash"}},
				attribute{path.Root("deploy_item_errors"), map[string]string{}})
		default:
			first, rest, _ := strings.Cut(k, ".")
			p := path.Root(first)
			if rest != "" {
				p = p.AtName(rest)
			}
			attrs = append(attrs, attribute{p, v})
		}
	}
	for _, a := range attrs {
		if d := s.SetAttribute(ctx, a.p, a.v); d.HasError() {
			t.Fatalf("%s: %v", a.p, d)
		}
	}
}

func installationSchema(t *testing.T) tfsdk.State {
	t.Helper()
	var resp resource.SchemaResponse
	(&installation.InstallationResource{}).Schema(context.Background(), resource.SchemaRequest{}, &resp)
	return tfsdk.State{Schema: resp.Schema, Raw: tftypes.NewValue(resp.Schema.Type().TerraformType(context.Background()), nil)}
}

func modifyPlan(t *testing.T, d *shared.ProviderData, set map[string]any) diag.Diagnostics {
	s := installationSchema(t)
	null := s
	configure(t, &s, set)
	resp := resource.ModifyPlanResponse{Plan: tfsdk.Plan(s)}
	(&installation.InstallationResource{Data: &installation.InstallationData{ProviderData: d}}).ModifyPlan(context.Background(),
		resource.ModifyPlanRequest{Plan: tfsdk.Plan(s), State: null, Config: tfsdk.Config(s)}, &resp)
	return resp.Diagnostics
}

func create(t *testing.T, d *shared.ProviderData, set map[string]any) diag.Diagnostics {
	s := installationSchema(t)
	out := s
	configure(t, &s, set)
	resp := resource.CreateResponse{State: out}
	(&installation.InstallationResource{Data: &installation.InstallationData{ProviderData: d}}).Create(context.Background(), resource.CreateRequest{Plan: tfsdk.Plan(s)}, &resp)
	return resp.Diagnostics
}

func destroy(t *testing.T, d *shared.ProviderData, set map[string]any) diag.Diagnostics {
	s := installationSchema(t)
	configure(t, &s, set)
	resp := resource.DeleteResponse{State: s}
	(&installation.InstallationResource{Data: &installation.InstallationData{ProviderData: d}}).Delete(context.Background(), resource.DeleteRequest{State: s}, &resp)
	return resp.Diagnostics
}

func readRendered(t *testing.T, d *shared.ProviderData, set map[string]any) diag.Diagnostics {
	ctx := context.Background()
	ds := &datasources.RenderedInstallationDataSource{RegistryUser: datasources.RegistryUser{Data: d}}
	var sr datasource.SchemaResponse
	ds.Schema(ctx, datasource.SchemaRequest{}, &sr)
	s := tfsdk.State{Schema: sr.Schema, Raw: tftypes.NewValue(sr.Schema.Type().TerraformType(ctx), nil)}
	out := s
	configure(t, &s, set)
	resp := datasource.ReadResponse{State: out}
	ds.Read(ctx, datasource.ReadRequest{Config: tfsdk.Config(s)}, &resp)
	return resp.Diagnostics
}

// Whatever shape an error has — a plain one, one on an attribute, a
// blueprint input's, wrapped or joined — addError and addWarning show it
// masked and on its attribute.
func TestAddError_MasksEveryShape(t *testing.T) {
	sec := &shared.Security{}
	sec.Secrets.Add(knownSecret)
	plain := fmt.Errorf("deploying: token %s refused", knownSecret)
	for _, c := range []struct {
		name string
		err  error
		want path.Path // empty: no attribute
	}{
		{"plain", plain, path.Empty()},
		{"attribute", shared.AttrErr(path.Root("context"), plain), path.Root("context")},
		{"blueprint input", blueprint.NewInputError(blueprint.InputImportDataMapping, "", plain), path.Root("import_data_mappings")},
		{"input inside a wrapped attribute error", fmt.Errorf("job: %w", shared.AttrErr(path.Root("blueprint"),
			blueprint.NewInputError(blueprint.InputImport, "password", plain))), path.Root("imports")},
		{"joined", errors.Join(errors.New("first"), shared.AttrErr(path.Root("manifest"), plain)), path.Root("manifest")},
		{"URL credential, no secret known", fmt.Errorf("GET https://user:%s@registry.test/v2/", knownSecret), path.Empty()},
	} {
		for _, add := range []func(shared.Diagnostics, *shared.Security, string, error){shared.AddError, shared.AddWarning} {
			var diags diag.Diagnostics
			s := sec
			if strings.HasPrefix(c.name, "URL") {
				s = nil
			}
			add(&diags, s, "Summary", c.err)
			if len(diags) != 1 {
				t.Fatalf("%s: %v", c.name, diags)
			}
			if strings.Contains(diags[0].Detail(), knownSecret) || !strings.Contains(diags[0].Detail(), "<redacted>") && s != nil {
				t.Errorf("%s: not masked: %s", c.name, diags[0].Detail())
			}
			var got path.Path
			if wp, ok := diags[0].(diag.DiagnosticWithPath); ok {
				got = wp.Path()
			}
			if got.String() != c.want.String() {
				t.Errorf("%s: on %q, want %q", c.name, got, c.want)
			}
		}
	}
}

// Every diagnostic the provider makes from an error's text goes through
// addError or addWarning, which mask secrets: no other code of the package
// hands err.Error() (or an error to fmt) to a diagnostic or a function
// error.
func TestDiagnostics_OnlyThroughAddError(t *testing.T) {
	sinks := map[string]bool{"AddError": true, "AddAttributeError": true, "AddWarning": true, "AddAttributeWarning": true,
		"NewArgumentFuncError": true, "NewFuncError": true}
	// The provider's packages: this one and one per Terraform type below it.
	var files []string
	err := filepath.WalkDir(".", func(name string, e fs.DirEntry, err error) error {
		if err == nil && !e.IsDir() && strings.HasSuffix(name, ".go") {
			files = append(files, name)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	checked := 0
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") || name == filepath.Join("shared", "input_error.go") {
			continue
		}
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		f, err := parser.ParseFile(fset, name, src, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			sel, isSel := ok, false
			if ok {
				var s *ast.SelectorExpr
				s, isSel = call.Fun.(*ast.SelectorExpr)
				// shared.AddError and shared.AddWarning are the masking ones
				sel = false
				if isSel {
					pkg, _ := s.X.(*ast.Ident)
					sel = sinks[s.Sel.Name] && (pkg == nil || pkg.Name != "shared")
				}
			}
			if !sel {
				return true
			}
			checked++
			for _, arg := range call.Args {
				if usesErrorText(arg) {
					t.Errorf("%s: a diagnostic made from an error's text; use addError or addWarning", fset.Position(call.Pos()))
				}
			}
			return true
		})
	}
	if checked == 0 {
		t.Fatal("no diagnostic found: the check reads nothing")
	}
}

// usesErrorText reports whether e calls Error() or formats an err.
func usesErrorText(e ast.Expr) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.CallExpr:
			if s, ok := x.Fun.(*ast.SelectorExpr); ok && s.Sel.Name == "Error" && len(x.Args) == 0 {
				found = true
			}
			if s, ok := x.Fun.(*ast.SelectorExpr); ok && fmt.Sprint(s.X) == "fmt" {
				for _, a := range x.Args {
					if id, ok := a.(*ast.Ident); ok && (id.Name == "err" || strings.HasSuffix(id.Name, "Err")) {
						found = true
					}
				}
			}
		}
		return !found
	})
	return found
}
