package provider

import (
	"context"
	"encoding/base64"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"helm.sh/helm/v3/pkg/chart"
	"helm.sh/helm/v3/pkg/repo"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/dynamic"
	"sigs.k8s.io/yaml"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint/component/componenttest"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/testsupport/localcluster"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/testsupport/ociregistry"
)

// The charts of an installation that names no Context are read with what
// its namespace's default Context gives, as in Landscaper: a Helm chart
// repository behind basic auth with configurations.helmChartRepoCredentials
// (the auth header in a Secret), and an OCI chart in a registry with auth
// with the Context's registry pull secret; the provider block has neither
// credential. With `context = ""` (no Context) the apply fails with 401,
// naming the repository and never a credential; neither the state nor a
// message shows one.
func TestAccInstallation_chartCredentialsFromDefaultContext(t *testing.T) {
	e := newAccEnv(t)
	dyn, err := dynamic.NewForConfig(localcluster.RESTConfig(t))
	if err != nil {
		t.Fatal(err)
	}
	installContextCRD(t, dyn)
	const repoPassword, registryPassword = "repo-pa55word", "registry-pa55word"
	tgz := (&ociLandscape{t: t}).archive("chart", "greeting/")
	reg := ociregistry.Start(t, ociregistry.Options{User: "ci", Password: registryPassword})
	ref := reg.Host() + "/charts/greeting:0.1.0"
	if _, err := componenttest.PushArtifact(context.Background(), componenttest.Remote("ci", registryPassword), ref,
		componenttest.Layer{MediaType: "application/vnd.cncf.helm.config.v1+json", Data: []byte(`{"name":"greeting","version":"0.1.0"}`)},
		componenttest.Layer{MediaType: mediaTypeHelmChart, Data: tgz}); err != nil {
		t.Fatal(err)
	}
	var refused atomic.Int32
	repoURL := basicAuthChartRepo(t, tgz, "reader", repoPassword, &refused)
	e.createSecret("pull", corev1.SecretTypeDockerConfigJson, corev1.DockerConfigJsonKey, fmt.Sprintf(`{"auths": {%q: {"auth": %q}}}`,
		"http://"+reg.Host(), base64.StdEncoding.EncodeToString([]byte("ci:"+registryPassword))))
	e.createSecret("repo-creds", corev1.SecretTypeOpaque, "authHeader", "Basic "+base64.StdEncoding.EncodeToString([]byte("reader:"+repoPassword)))
	lsContext := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion":          "landscaper.gardener.cloud/v1alpha1",
		"kind":                "Context",
		"metadata":            map[string]any{"name": "default", "namespace": e.namespace},
		"registryPullSecrets": []any{map[string]any{"name": "pull"}},
		"configurations": map[string]any{"helmChartRepoCredentials": map[string]any{
			"auths": []any{map[string]any{"url": repoURL, "secretRef": map[string]any{"name": "repo-creds"}}},
		}},
	}}
	if _, err := dyn.Resource(contextResource).Namespace(e.namespace).Create(context.Background(), lsContext, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	item := func(name, chartSource string) string {
		return fmt.Sprintf(`- name: %[1]s
  type: landscaper.gardener.cloud/helm
  target: {import: cluster}
  config:
    apiVersion: helm.deployer.landscaper.gardener.cloud/v1alpha1
    kind: ProviderConfiguration
    name: %[1]s
    namespace: %[2]s
    chart: %[3]s
    values: {name: %[1]s, greeting: hello, component: none}
`, name, e.namespace, chartSource)
	}
	items := item("from-repo", fmt.Sprintf("{helmChartRepo: {helmChartRepoUrl: %q, helmChartName: greeting, helmChartVersion: 0.1.0}}", repoURL)) +
		item("from-oci", fmt.Sprintf("{ref: %q}", ref))
	config := func(contextLine string) string {
		return e.hostProviderHCL() + e.targetHCL + fmt.Sprintf(`
resource "landscaper_installation" "charts" {
  name      = "charts"
  namespace = %q
  %s
  blueprint = { inline = { "blueprint.yaml" = %q } }
  imports   = { targets = { cluster = landscaper_target.cluster.target } }
}
`, e.namespace, contextLine, clusterBlueprint("", items, ""))
	}
	inst := "landscaper_installation.charts"
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviders,
		CheckDestroy:             e.configMapsGone("from-repo", "from-oci"),
		Steps: []resource.TestStep{
			{
				Config:      config(`context = ""`),
				ExpectError: regexp.MustCompile(`401 Unauthorized:\s+the\s+installation's\s+Context\s+gives\s+no\s+credentials`),
			},
			{
				Config: config(""),
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckResourceAttr(inst, "phase", "Succeeded"),
					e.configMapData("from-repo", map[string]string{"greeting": "hello", "component": "none"}),
					e.configMapData("from-oci", map[string]string{"greeting": "hello", "component": "none"}),
					stateNeverShows(repoPassword, registryPassword, base64.StdEncoding.EncodeToString([]byte("reader:"+repoPassword))),
				),
			},
		},
	})
	if refused.Load() == 0 {
		t.Fatal("the chart repository never refused a request: the first step proves nothing")
	}
}

// createSecret creates a Secret of one key in the test namespace.
func (e *accEnv) createSecret(name string, typ corev1.SecretType, key, value string) {
	e.t.Helper()
	_, err := e.kube.CoreV1().Secrets(e.namespace).Create(context.Background(), &corev1.Secret{
		ObjectMeta: metav1.ObjectMeta{Name: name}, Type: typ, Data: map[string][]byte{key: []byte(value)},
	}, metav1.CreateOptions{})
	if err != nil {
		e.t.Fatal(err)
	}
}

// basicAuthChartRepo serves a Helm chart repository with the chart
// greeting 0.1.0 on loopback, every request behind basic auth; refused
// counts the requests it turned away.
func basicAuthChartRepo(t *testing.T, tgz []byte, user, password string, refused *atomic.Int32) string {
	t.Helper()
	index := repo.NewIndexFile()
	if err := index.MustAdd(&chart.Metadata{APIVersion: chart.APIVersionV2, Name: "greeting", Version: "0.1.0"}, "charts/greeting-0.1.0.tgz", "", "sha256:unchecked"); err != nil {
		t.Fatal(err)
	}
	indexYAML, err := yaml.Marshal(index)
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/repo/index.yaml", func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write(indexYAML) })
	mux.HandleFunc("/repo/charts/greeting-0.1.0.tgz", func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write(tgz) })
	return serveLoopbackHTTP(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if u, p, ok := r.BasicAuth(); !ok || u != user || p != password {
			refused.Add(1)
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		mux.ServeHTTP(w, r)
	})) + "/repo"
}

// stateNeverShows fails when any attribute of any resource holds one of
// the values.
func stateNeverShows(values ...string) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		for name, rs := range s.RootModule().Resources {
			for attr, v := range rs.Primary.Attributes {
				for _, secret := range values {
					if strings.Contains(v, secret) {
						return fmt.Errorf("%s.%s shows a credential", name, attr)
					}
				}
			}
		}
		return nil
	}
}

// serveLoopbackHTTP serves h on 127.0.0.1 (no other interface) until the
// test ends and returns its base URL.
func serveLoopbackHTTP(t *testing.T, h http.Handler) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewUnstartedServer(h)
	srv.Listener = l
	srv.Start()
	t.Cleanup(srv.Close)
	return srv.URL
}
