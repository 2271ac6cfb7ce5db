package helm

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
	"testing/fstest"

	"helm.sh/helm/v3/pkg/chart"
	"helm.sh/helm/v3/pkg/chart/loader"
)

// chartDir is a chart directory as public charts lay them out: a
// .helmignore that hides a kustomization among the CRDs (traefik's), a
// dotfile in templates/ (ignored by Helm's default rule), a subchart in
// charts/ with its own .helmignore, Chart.lock, and a file with a UTF-8
// byte order mark.
func chartDir() fstest.MapFS {
	return fstest.MapFS{
		"c/Chart.yaml":                  {Data: []byte("apiVersion: v2\nname: top\nversion: 1.0.0\ndependencies:\n- name: sub\n  version: 0.1.0\n")},
		"c/Chart.lock":                  {Data: []byte("dependencies:\n- name: sub\n  repository: \"\"\n  version: 0.1.0\ndigest: sha256:0000\ngenerated: \"2026-01-01T00:00:00Z\"\n")},
		"c/.helmignore":                 {Data: []byte("# comment\n*.md\ncrds/kustomization.yaml\nci/\n")},
		"c/values.yaml":                 {Data: []byte("\xEF\xBB\xBFa: 1\n")},
		"c/README.md":                   {Data: []byte("ignored")},
		"c/ci/test-values.yaml":         {Data: []byte("ignored: true")},
		"c/crds/a.yaml":                 {Data: []byte("apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {name: as.example.com}\n")},
		"c/crds/kustomization.yaml":     {Data: []byte("apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources: [a.yaml]\n")},
		"c/templates/cm.yaml":           {Data: []byte("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n")},
		"c/templates/.hidden.yaml":      {Data: []byte("not: a template")},
		"c/charts/sub/Chart.yaml":       {Data: []byte("apiVersion: v2\nname: sub\nversion: 0.1.0\n")},
		"c/charts/sub/.helmignore":      {Data: []byte("*.txt\n")},
		"c/charts/sub/notes.txt":        {Data: []byte("ignored by the subchart's rules")},
		"c/charts/sub/templates/s.yaml": {Data: []byte("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: s}\n")},
	}
}

// TestLocalChart_LoadsAsHelm: a chart directory among the blueprint files
// loads as Helm's loader.LoadDir loads the same directory from disk.
// Before, every file was taken: traefik's crds/kustomization.yaml became a
// CRD that failed the install.
func TestLocalChart_LoadsAsHelm(t *testing.T) {
	files := chartDir()
	got, _, err := localChart(files, "./c")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for name, f := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, f.Data, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	want, err := loader.LoadDir(filepath.Join(dir, "c"))
	if err != nil {
		t.Fatal(err)
	}
	if g, w := chartShape(got), chartShape(want); !reflect.DeepEqual(g, w) {
		t.Fatalf("loaded\n%v\nHelm loads\n%v", g, w)
	}
	if len(got.CRDObjects()) != 1 || got.Lock == nil || len(got.Dependencies()) != 1 || got.Values["a"] != float64(1) {
		t.Fatalf("crds %d, lock %v, dependencies %d, values %v", len(got.CRDObjects()), got.Lock, len(got.Dependencies()), got.Values)
	}
}

// TestLocalChart_DigestOfLoadedFiles: a change to an ignored file is no
// change of the chart (no upgrade); a change to a template is.
func TestLocalChart_DigestOfLoadedFiles(t *testing.T) {
	files := chartDir()
	_, before, err := localChart(files, "c")
	if err != nil {
		t.Fatal(err)
	}
	files["c/README.md"] = &fstest.MapFile{Data: []byte("changed")}
	if _, after, err := localChart(files, "c"); err != nil || after != before {
		t.Fatalf("digest after an ignored file changed: %s, %v; want %s", after, err, before)
	}
	files["c/templates/cm.yaml"] = &fstest.MapFile{Data: []byte("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: y}\n")}
	if _, after, err := localChart(files, "c"); err != nil || after == before {
		t.Fatalf("digest after a template changed: %s, %v; want a new one", after, err)
	}
}

// chartShape lists a chart's files by role, subcharts included.
func chartShape(c *chart.Chart) []string {
	var out []string
	for _, f := range c.Raw {
		out = append(out, c.Name()+" raw "+f.Name)
	}
	for _, f := range c.Templates {
		out = append(out, c.Name()+" template "+f.Name)
	}
	for _, f := range c.Files {
		out = append(out, c.Name()+" file "+f.Name)
	}
	for _, d := range c.Dependencies() {
		out = append(out, chartShape(d)...)
	}
	sort.Strings(out)
	return out
}

// TestLoadChart_MissingDependency: a dependency of Chart.yaml that is not
// in charts/ fails the load, as it fails `helm install`, instead of
// installing the chart without it.
func TestLoadChart_MissingDependency(t *testing.T) {
	files := chartDir()
	for name := range files {
		if strings.HasPrefix(name, "c/charts/") {
			delete(files, name)
		}
	}
	_, _, err := loadChart(context.Background(), Chart{Path: "c"}, files, nil)
	if err == nil || !strings.Contains(err.Error(), "missing in charts/ directory: sub") {
		t.Fatalf("loadChart = %v; want the missing dependency named", err)
	}
	if _, _, err := loadChart(context.Background(), Chart{Path: "c"}, chartDir(), nil); err != nil {
		t.Fatal(err)
	}
}
