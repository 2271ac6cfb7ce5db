package fieldtable

import (
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer/helm"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer/manifest"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/testsupport/checkout"
)

// Landscaper v0.152's fields (gardener/landscaper apis/deployer/…
// types_provider.go, utils/managedresource, utils/readinesschecks,
// utils/continuousreconcile; the deploy execution's
// DeployItemSpecification), as of the last release. Each must have a row.
var (
	landscaperManifest = []string{
		"apiVersion", "kind", "updateStrategy",
		"readinessChecks.disableDefault", "readinessChecks.custom[].name", "readinessChecks.custom[].disabled",
		"readinessChecks.custom[].resourceSelector[].apiVersion", "readinessChecks.custom[].resourceSelector[].kind",
		"readinessChecks.custom[].resourceSelector[].name", "readinessChecks.custom[].resourceSelector[].namespace",
		"readinessChecks.custom[].labelSelector.apiVersion", "readinessChecks.custom[].labelSelector.kind", "readinessChecks.custom[].labelSelector.matchLabels",
		"readinessChecks.custom[].requirements[].jsonPath", "readinessChecks.custom[].requirements[].operator",
		"readinessChecks.custom[].requirements[].values[].value", "readinessChecks.custom[].targetName",
		"manifests[].policy", "manifests[].manifest", "manifests[].annotateBeforeCreate", "manifests[].annotateBeforeDelete",
		"manifests[].patchAfterDeployment", "manifests[].patchBeforeDelete",
		"exports.exports[].key", "exports.exports[].jsonPath", "exports.exports[].fromResource.apiVersion", "exports.exports[].fromResource.kind",
		"exports.exports[].fromResource.name", "exports.exports[].fromResource.namespace", "exports.exports[].fromObjectRef.apiVersion",
		"exports.exports[].fromObjectRef.kind", "exports.exports[].fromObjectRef.jsonPath", "exports.exports[].targetName",
		"continuousReconcile.cron", "continuousReconcile.every",
		"deletionGroups[].predefinedResourceGroup.type", "deletionGroups[].predefinedResourceGroup.forceDelete",
		"deletionGroups[].customResourceGroup.resources[].apiVersion", "deletionGroups[].customResourceGroup.resources[].kind",
		"deletionGroups[].customResourceGroup.resources[].names", "deletionGroups[].customResourceGroup.resources[].namespaces",
		"deletionGroups[].customResourceGroup.forceDelete", "deletionGroups[].customResourceGroup.deleteAllResources",
		"deletionGroups[].customResourceGroup.targetName", "deletionGroupsDuringUpdate[].predefinedResourceGroup.type",
	}
	landscaperHelm = []string{
		"apiVersion", "kind", "updateStrategy", "readinessChecks.custom[].targetName",
		"chart.ref", "chart.fromResource.ref", "chart.fromResource.inline", "chart.fromResource.resourceName",
		"chart.archive.raw", "chart.archive.remote.url", "chart.helmChartRepo.helmChartRepoUrl", "chart.helmChartRepo.helmChartName",
		"chart.helmChartRepo.helmChartVersion", "chart.resourceRef", "name", "namespace", "createNamespace", "values",
		"exportsFromManifests[].key", "exports.exports[].targetName", "continuousReconcile.cron", "helmDeployment",
		"helmDeploymentConfig.install.atomic", "helmDeploymentConfig.install.force", "helmDeploymentConfig.install.skipSchemaValidation",
		"helmDeploymentConfig.install.takeOwnership", "helmDeploymentConfig.install.wait", "helmDeploymentConfig.install.timeout",
		"helmDeploymentConfig.upgrade.atomic", "helmDeploymentConfig.upgrade.force", "helmDeploymentConfig.upgrade.skipSchemaValidation",
		"helmDeploymentConfig.upgrade.takeOwnership", "helmDeploymentConfig.upgrade.wait", "helmDeploymentConfig.upgrade.timeout",
		"helmDeploymentConfig.uninstall.wait", "helmDeploymentConfig.uninstall.timeout",
		"deletionGroups[].customResourceGroup.targetName", "deletionGroupsDuringUpdate[].predefinedResourceGroup.type",
	}
	landscaperTemplate = []string{
		"name", "type", "target.name", "target.import", "target.index", "target.key", "labels", "config", "dependsOn",
		"timeout", "updateOnChangeOnly", "onDelete.skipUninstallIfClusterRemoved",
	}
)

type tableCase struct {
	table      Table
	decoder    reflect.Type
	landscaper []string
}

func cases() []tableCase {
	return []tableCase{
		{Manifest, reflect.TypeOf(manifest.ProviderConfiguration{}), landscaperManifest},
		{Helm, reflect.TypeOf(helm.ProviderConfiguration{}), landscaperHelm},
		{Template, reflect.TypeOf(api.DeployItemTemplate{}), landscaperTemplate},
	}
}

// TestTable_MatchesTheDecoders: every field a decoder declares has exactly
// one row, in the decoder's order, and every row is a field of it, so a
// field added to a decoder without a verdict, or a row for a field the
// decoder lost, fails here.
func TestTable_MatchesTheDecoders(t *testing.T) {
	for _, c := range cases() {
		t.Run(c.table.Title, func(t *testing.T) {
			same := map[string]bool{}
			var rows []string
			for _, r := range c.table.Rows {
				rows = append(rows, r.Path)
				if r.Same != "" {
					same[r.Path] = true
				}
			}
			decoded := api.FieldPaths(c.decoder, func(p string) bool { return same[p] })
			if strings.Join(decoded, "\n") != strings.Join(rows, "\n") {
				t.Fatalf("rows:\n%s\n\ndecoder's fields:\n%s", strings.Join(rows, "\n"), strings.Join(decoded, "\n"))
			}
		})
	}
}

// TestTable_CoversLandscaper: every field of Landscaper v0.152's
// configuration has a row (itself, or the row of an opaque field that
// holds it, or of a field whose subfields another table lists).
func TestTable_CoversLandscaper(t *testing.T) {
	for _, c := range cases() {
		t.Run(c.table.Title, func(t *testing.T) {
			rows := map[string]Row{}
			for _, r := range c.table.Rows {
				rows[r.Path] = r
			}
			decoded := map[string]bool{}
			for _, p := range api.FieldPaths(c.decoder, nil) {
				decoded[p] = true
			}
			for _, p := range c.landscaper {
				if _, ok := rows[p]; ok {
					continue
				}
				covered := false
				for q := p; q != ""; q = parent(q) {
					if r, ok := rows[q]; ok && (r.Same != "" || !hasChild(decoded, q)) {
						covered = true
						break
					}
				}
				if !covered {
					t.Errorf("Landscaper's %s has no row", p)
				}
			}
		})
	}
}

// parent is the path without its last field ("a.b[].c" → "a.b").
func parent(p string) string {
	i := strings.LastIndex(p, ".")
	if i < 0 {
		return ""
	}
	return strings.TrimSuffix(p[:i], "[]")
}

func hasChild(paths map[string]bool, p string) bool {
	for q := range paths {
		if strings.HasPrefix(q, p+".") || strings.HasPrefix(q, p+"[].") {
			return true
		}
	}
	return false
}

// TestTable_RowsSayEnough: a refused or differing field says why, and
// every test a row names exists in this repository.
func TestTable_RowsSayEnough(t *testing.T) {
	tests := testNames(t)
	for _, c := range cases() {
		for _, r := range c.table.Rows {
			if r.Verdict != Honoured && strings.TrimSpace(r.How) == "" {
				t.Errorf("%s: %s: %s without a reason", c.table.Title, r.Path, r.Verdict)
			}
			for _, name := range r.Tests {
				if !tests[name] {
					t.Errorf("%s: %s names test %s, which does not exist", c.table.Title, r.Path, name)
				}
			}
		}
	}
}

var testFunc = regexp.MustCompile(`(?m)^func (Test\w+)\(`)

// testNames are the test functions of the repository's Go packages.
func testNames(t *testing.T) map[string]bool {
	t.Helper()
	root, err := checkout.Root()
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	err = filepath.WalkDir(filepath.Join(root, "internal"), func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, "_test.go") {
			return err
		}
		b, err := os.ReadFile(filepath.Clean(path))
		if err != nil {
			return err
		}
		for _, m := range testFunc.FindAllStringSubmatch(string(b), -1) {
			names[m[1]] = true
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return names
}

const (
	begin = "<!-- fieldtable: generated by internal/deployer/fieldtable; LANDSCAPER_UPDATE_FIELDS=1 go test ./internal/deployer/fieldtable/ rewrites it -->\n"
	end   = "<!-- fieldtable: end -->\n"
)

// guides are the guide's template and the page `make docs` makes of it
// (a guide is copied as it is).
var guides = []string{"templates/guides/landscaper-deploy-item-fields.md.tmpl", "docs/guides/landscaper-deploy-item-fields.md"}

// TestTable_GuideIsCurrent: the guide shows the tables as they are; with
// LANDSCAPER_UPDATE_FIELDS=1 it is rewritten instead.
func TestTable_GuideIsCurrent(t *testing.T) {
	var parts []string
	for _, c := range cases() {
		parts = append(parts, c.table.Markdown())
	}
	want := begin + "\n" + strings.Join(parts, "\n") + "\n" + end
	root, err := checkout.Root()
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range guides {
		path := filepath.Join(root, g)
		b, err := os.ReadFile(filepath.Clean(path))
		if err != nil {
			t.Fatal(err)
		}
		text := string(b)
		i, j := strings.Index(text, begin), strings.Index(text, end)
		if i < 0 || j < i {
			t.Fatalf("%s has no generated section (%q … %q)", g, begin, end)
		}
		current := text[:i] + want + text[j+len(end):]
		if current == text {
			continue
		}
		if os.Getenv("LANDSCAPER_UPDATE_FIELDS") == "1" {
			if err := os.WriteFile(path, []byte(current), 0o600); err != nil {
				t.Fatal(err)
			}
			continue
		}
		t.Errorf("%s is stale: run LANDSCAPER_UPDATE_FIELDS=1 go test ./internal/deployer/fieldtable/", g)
	}
}
