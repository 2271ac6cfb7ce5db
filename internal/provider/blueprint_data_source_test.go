package provider

import (
	"fmt"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

// importRow is the expected element of landscaper_blueprint.imports.
func importRow(name, typ, targetType string, required bool, schema, def, parent string) knownvalue.Check {
	return knownvalue.ObjectExact(map[string]knownvalue.Check{
		"name": knownvalue.StringExact(name), "type": knownvalue.StringExact(typ),
		"target_type": stringOrNull(targetType), "required": knownvalue.Bool(required),
		"schema": stringOrNull(schema), "default": stringOrNull(def), "parent": stringOrNull(parent),
	})
}

func stringOrNull(s string) knownvalue.Check {
	if s == "" {
		return knownvalue.Null()
	}
	return knownvalue.StringExact(s)
}

// A blueprint directory is reported declaration by declaration, defaults
// applied (target types qualified, required true), conditional imports
// after their parent, and its misspelt field as a warning.
func TestAccBlueprintDataSource_declarations(t *testing.T) {
	ds := "data.landscaper_blueprint.bp"
	k8s := "landscaper.gardener.cloud/kubernetes-cluster"
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviders,
		Steps: []resource.TestStep{{
			Config: fmt.Sprintf(`
data "landscaper_blueprint" "bp" {
  blueprint = { path = %q }
}`, blueprintDir(t, "blueprint-declarations")),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(ds, tfjsonpath.New("imports"), knownvalue.ListExact([]knownvalue.Check{
					importRow("cluster", "target", k8s, true, "", "", ""),
					importRow("clusters", "targetList", k8s, true, "", "", ""),
					importRow("replicas", "data", "", false, `{"type":"integer"}`, "1", ""),
					importRow("monitoring", "data", "", false, `{"type":"object"}`, "", ""),
					importRow("monitoringEndpoint", "data", "", true, `{"type":"string"}`, "", "monitoring"),
				})),
				statecheck.ExpectKnownValue(ds, tfjsonpath.New("exports"), knownvalue.ListExact([]knownvalue.Check{
					knownvalue.ObjectExact(map[string]knownvalue.Check{"name": knownvalue.StringExact("url"), "type": knownvalue.StringExact("data"),
						"target_type": knownvalue.Null(), "schema": knownvalue.StringExact(`{"type":"string"}`)}),
					knownvalue.ObjectExact(map[string]knownvalue.Check{"name": knownvalue.StringExact("appCluster"), "type": knownvalue.StringExact("target"),
						"target_type": knownvalue.StringExact(k8s), "schema": knownvalue.Null()}),
				})),
				statecheck.ExpectKnownValue(ds, tfjsonpath.New("executions"), knownvalue.ListExact([]knownvalue.Check{
					execRow("import", "check", "GoTemplate"), execRow("deploy", "main", "GoTemplate"), execRow("export", "exports", "Spiff"),
				})),
				statecheck.ExpectKnownValue(ds, tfjsonpath.New("subinstallations"), knownvalue.ListExact([]knownvalue.Check{
					knownvalue.StringExact("file:/sub.yaml"), knownvalue.StringExact("inline-sub"),
				})),
				statecheck.ExpectKnownValue(ds, tfjsonpath.New("json_schema_version"), knownvalue.StringExact("https://json-schema.org/draft/2019-09/schema")),
				statecheck.ExpectKnownValue(ds, tfjsonpath.New("warnings"), knownvalue.ListExact([]knownvalue.Check{
					knownvalue.StringExact("exportExecution: unknown field"),
				})),
			},
		}},
	})
}

func execRow(stage, name, typ string) knownvalue.Check {
	return knownvalue.ObjectExact(map[string]knownvalue.Check{
		"stage": knownvalue.StringExact(stage), "name": knownvalue.StringExact(name), "type": knownvalue.StringExact(typ),
	})
}

// An inline blueprint works like a directory; one without declarations
// yields empty lists, not nulls, so length() works on them.
func TestAccBlueprintDataSource_inline(t *testing.T) {
	ds := "data.landscaper_blueprint.bp"
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviders,
		Steps: []resource.TestStep{{
			Config: `
data "landscaper_blueprint" "bp" {
  blueprint = { inline = { "blueprint.yaml" = <<-EOT
    apiVersion: landscaper.gardener.cloud/v1alpha1
    kind: Blueprint
    imports:
    - name: namespace
      schema: {type: string}
    EOT
  } }
}

output "import_names" {
  value = [for i in data.landscaper_blueprint.bp.imports : i.name]
}`,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownOutputValue("import_names", knownvalue.ListExact([]knownvalue.Check{knownvalue.StringExact("namespace")})),
				statecheck.ExpectKnownValue(ds, tfjsonpath.New("exports"), knownvalue.ListSizeExact(0)),
				statecheck.ExpectKnownValue(ds, tfjsonpath.New("executions"), knownvalue.ListSizeExact(0)),
				statecheck.ExpectKnownValue(ds, tfjsonpath.New("subinstallations"), knownvalue.ListSizeExact(0)),
				statecheck.ExpectKnownValue(ds, tfjsonpath.New("warnings"), knownvalue.ListSizeExact(0)),
			},
		}},
	})
}

// Invalid blueprints and source combinations are errors on the attribute
// (the CLI quotes the `blueprint = ...` line), naming the violated rule.
func TestAccBlueprintDataSource_invalid(t *testing.T) {
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviders,
		Steps: []resource.TestStep{
			{
				Config: `
data "landscaper_blueprint" "bp" {
  blueprint = { inline = { "blueprint.yaml" = "imports: [{name: a, schema: {type: string}, targetType: x}]" } }
}`,
				ExpectError: regexp.MustCompile(`(?s)Invalid Blueprint.*blueprint = \{ inline.*imports\[0\]: either schema or targetType must be set, not both`),
			},
			{
				Config: `
data "landscaper_blueprint" "bp" {
  blueprint = { path = "/nonexistent", inline = { "blueprint.yaml" = "kind: Blueprint" } }
}`,
				ExpectError: regexp.MustCompile(`(?s)Invalid Attribute Combination.*blueprint = \{ path.*exactly one of path, inline, ref must be set, got 2`),
			},
			{
				Config: `
data "landscaper_blueprint" "bp" {
  blueprint = { path = "/nonexistent" }
}`,
				// The error is on blueprint.path; Terraform 1.5 quotes the block for a path inside an object literal.
				ExpectError: regexp.MustCompile(`(?s)Invalid Blueprint.*blueprint directory: stat /nonexistent`),
			},
			{
				Config: `
data "landscaper_blueprint" "bp" {
  blueprint            = { ref = { resource_name = "bp" } }
  component_descriptor = { inline = "not: [a, descriptor" }
}`,
				ExpectError: regexp.MustCompile(`(?s)Invalid Blueprint.*component_descriptor = \{ inline.*inline component descriptor`),
			},
		},
	})
}
