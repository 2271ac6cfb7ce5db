package provider

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"helm.sh/helm/v3/pkg/action"
	"helm.sh/helm/v3/pkg/storage/driver"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/cli-runtime/pkg/genericclioptions"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/testsupport/localcluster"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/testsupport/postgres"
)

// bigReleaseParts and bigReleasePartBytes make a release of about 4 MB
// (2 MB of incompressible data, in the chart and again in the manifest): the chart holds it in files and renders it into
// ConfigMaps, each below the API server's limits for one object.
const (
	bigReleaseParts     = 4
	bigReleasePartBytes = 500 << 10
)

// bigReleaseBlueprint writes a blueprint with one Helm release of a chart
// whose files hold bigReleaseParts parts of random data, rendered into
// one ConfigMap each with the imported revision.
func bigReleaseBlueprint(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"blueprint.yaml": `apiVersion: landscaper.gardener.cloud/v1alpha1
kind: Blueprint
imports:
- name: cluster
  targetType: landscaper.gardener.cloud/kubernetes-cluster
- name: namespace
  schema: {type: string}
- name: revision
  schema: {type: string}
deployExecutions:
- name: main
  type: GoTemplate
  template: |
    deployItems:
    - name: big
      type: landscaper.gardener.cloud/helm
      target: {import: cluster}
      timeout: 2m
      config:
        apiVersion: helm.deployer.landscaper.gardener.cloud/v1alpha1
        kind: ProviderConfiguration
        name: big
        namespace: {{ .imports.namespace }}
        chart: {path: chart}
        values: {revision: {{ .imports.revision | quote }}}
`,
		"chart/Chart.yaml": "apiVersion: v2\nname: big\nversion: 0.1.0\n",
		"chart/templates/parts.yaml": `{{- range $path, $_ := .Files.Glob "files/*.txt" }}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: {{ base $path | trimSuffix ".txt" }}}
data:
  data: {{ $.Files.Get $path | quote }}
  revision: {{ $.Values.revision | quote }}
{{- end }}
`,
	}
	for i := 0; i < bigReleaseParts; i++ {
		b := make([]byte, bigReleasePartBytes*3/4)
		if _, err := rand.Read(b); err != nil {
			t.Fatal(err)
		}
		files[fmt.Sprintf("chart/files/part-%d.txt", i)] = base64.StdEncoding.EncodeToString(b)
	}
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// bigReleaseConfig is the installation of the big release with the
// provider block's helm_storage (HCL attribute lines, or "").
func (e *accEnv) bigReleaseConfig(dir, storage, revision string) string {
	return fmt.Sprintf("provider \"landscaper\" {\n%s\n}\n", storage) +
		e.pathInstallation("big", dir, fmt.Sprintf("revision = %q", revision))
}

// sqlReleases is the test namespace's Helm storage as `helm` with
// HELM_DRIVER=sql and the connection string reads it.
func (e *accEnv) sqlReleases(conn string) *action.Configuration {
	e.t.Helper()
	e.t.Setenv("HELM_DRIVER_SQL_CONNECTION_STRING", conn)
	flags := genericclioptions.NewConfigFlags(false)
	kubeconfig, ns := localcluster.KubeconfigPath(e.t), e.namespace
	flags.KubeConfig, flags.Namespace = &kubeconfig, &ns
	cfg := new(action.Configuration)
	if err := cfg.Init(flags, ns, "sql", func(string, ...any) {}); err != nil {
		e.t.Fatal(err)
	}
	return cfg
}

// nothingOfTheRelease checks that the namespace holds no ConfigMap of
// the chart and no release record in Secrets.
func (e *accEnv) nothingOfTheRelease() error {
	ctx := context.Background()
	cms, err := e.kube.CoreV1().ConfigMaps(e.namespace).List(ctx, metav1.ListOptions{})
	if err != nil {
		return err
	}
	for _, c := range cms.Items {
		if c.Name != "kube-root-ca.crt" {
			return fmt.Errorf("ConfigMap %s exists", c.Name)
		}
	}
	secrets, err := e.kube.CoreV1().Secrets(e.namespace).List(ctx, metav1.ListOptions{LabelSelector: "owner=helm"})
	if err != nil {
		return err
	}
	if len(secrets.Items) > 0 {
		return fmt.Errorf("release Secret %s exists", secrets.Items[0].Name)
	}
	return nil
}

// A Helm release of about 4 MB: with Helm's Secret driver (the default)
// the plan fails, naming the installation, the item, the size and the
// limit and what to do, and nothing is created; with helm_storage's SQL
// driver it installs, plans empty, upgrades and is destroyed, its
// records in PostgreSQL where `helm` with the SQL driver reads them.
func TestAccInstallation_helmsql37BigRelease(t *testing.T) {
	e := newAccEnv(t)
	dir := bigReleaseBlueprint(t)
	conn := postgres.Start(t)
	helmSQL := e.sqlReleases(conn)
	sql := fmt.Sprintf("  helm_storage = {\n    driver = \"sql\"\n    sql_connection_string = %q\n  }", conn)
	revisionIs := func(want int) func(*terraform.State) error {
		return func(*terraform.State) error {
			rel, err := helmSQL.Releases.Last("big")
			if err != nil {
				return fmt.Errorf("helm with the SQL driver: %w", err)
			}
			if rel.Version != want {
				return fmt.Errorf("release big is at revision %d, want %d", rel.Version, want)
			}
			secrets, err := e.kube.CoreV1().Secrets(e.namespace).List(context.Background(), metav1.ListOptions{LabelSelector: "owner=helm"})
			if err != nil {
				return err
			}
			if len(secrets.Items) > 0 {
				return fmt.Errorf("release Secret %s next to the SQL records", secrets.Items[0].Name)
			}
			for i := 0; i < bigReleaseParts; i++ {
				cm, err := e.kube.CoreV1().ConfigMaps(e.namespace).Get(context.Background(), fmt.Sprintf("part-%d", i), metav1.GetOptions{})
				if err != nil {
					return err
				}
				if cm.Data["revision"] != fmt.Sprint(want) || len(cm.Data["data"]) != bigReleasePartBytes {
					return fmt.Errorf("ConfigMap %s: revision %q, %d bytes of data", cm.Name, cm.Data["revision"], len(cm.Data["data"]))
				}
			}
			return nil
		}
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviders,
		CheckDestroy: func(*terraform.State) error {
			switch rel, err := helmSQL.Releases.Last("big"); {
			case err == nil:
				return fmt.Errorf("after the destroy helm with the SQL driver still reads revision %d", rel.Version)
			case !errors.Is(err, driver.ErrReleaseNotFound):
				return fmt.Errorf("after the destroy helm with the SQL driver: %w", err)
			}
			return e.nothingOfTheRelease()
		},
		Steps: []resource.TestStep{
			{
				Config: e.bigReleaseConfig(dir, "", "1"),
				ExpectError: regexp.MustCompile(`(?s)Deploy Item Beyond A Limit.*installation\s+"` + e.namespace + `\.big",\s+deploy\s+item\s+"big".*` + e.namespace +
					`/big\s+would\s+be\s+\d+\s+bytes.*above\s+the\s+1048576\s+bytes\s+a\s+Secret\s+may\s+hold.*driver\s+=\s+"sql"`),
			},
			{
				PreConfig: func() {
					if err := e.nothingOfTheRelease(); err != nil {
						t.Fatalf("the refused plan left something behind: %v", err)
					}
				},
				Config: e.bigReleaseConfig(dir, sql, "1"),
				Check:  revisionIs(1),
			},
			{
				Config: e.bigReleaseConfig(dir, sql, "2"),
				Check:  revisionIs(2),
			},
		},
	})
}
