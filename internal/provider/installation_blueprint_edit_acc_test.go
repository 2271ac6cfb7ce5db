package provider

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
)

// Editing only a blueprint's export template — no deploy item changes —
// still plans an update (blueprint_digest), and the apply re-runs the
// export execution.
func TestAccInstallation_blueprintEditWithoutItemChange(t *testing.T) {
	e := newAccEnv(t)
	dir := t.TempDir()
	original, err := os.ReadFile(filepath.Join(blueprintDir(t, "configmaps"), "blueprint.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	write := func(content string) {
		if err := os.WriteFile(filepath.Join(dir, "blueprint.yaml"), []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write(string(original))
	edited := strings.Replace(string(original), "derivedName: {{ if", "derivedName: edited-{{ if", 1)
	if edited == string(original) {
		t.Fatal("test blueprint changed: the export template to edit is not there")
	}
	config := e.pathInstallation("cm", dir, `values = { a = "1" }`)
	inst := "landscaper_installation.cm"
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviders,
		CheckDestroy:             e.configMapsGone("settings", "derived"),
		Steps: []resource.TestStep{
			{Config: config, Check: resource.TestCheckResourceAttr(inst, "exports.derivedName", "derived")},
			{
				PreConfig: func() { write(edited) },
				Config:    config,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(inst, plancheck.ResourceActionUpdate),
				}},
				Check: resource.TestCheckResourceAttr(inst, "exports.derivedName", "edited-derived"),
			},
		},
	})
}
