package helm

import (
	"context"
	"encoding/base64"
	"encoding/pem"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync/atomic"
	"testing"

	"helm.sh/helm/v3/pkg/chart"
	"helm.sh/helm/v3/pkg/chartutil"
	"helm.sh/helm/v3/pkg/repo"
	"sigs.k8s.io/yaml"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/failure"
)

const (
	repoUser     = "chart-reader"
	repoPassword = "s3cret-repo-password"
)

// authChart is a chart archive with a ConfigMap template.
func authChart(t *testing.T) []byte {
	t.Helper()
	ch := &chart.Chart{
		Metadata:  &chart.Metadata{APIVersion: chart.APIVersionV2, Name: "guarded", Version: "0.2.0"},
		Templates: []*chart.File{{Name: "templates/cm.yaml", Data: []byte("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: guarded}\n")}},
	}
	p, err := chartutil.Save(ch, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// guardedRepo serves a chart repository (index.yaml and the chart) and a
// chart archive, all behind basic auth; it counts the requests without
// credentials.
func guardedRepo(t *testing.T, tgz []byte, unauthorized *atomic.Int32) http.Handler {
	t.Helper()
	index := repo.NewIndexFile()
	if err := index.MustAdd(&chart.Metadata{APIVersion: chart.APIVersionV2, Name: "guarded", Version: "0.2.0"}, "charts/guarded-0.2.0.tgz", "", "sha256:unchecked"); err != nil {
		t.Fatal(err)
	}
	indexYAML, err := yaml.Marshal(index)
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/repo/index.yaml", func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write(indexYAML) })
	mux.HandleFunc("/repo/charts/guarded-0.2.0.tgz", func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write(tgz) })
	mux.HandleFunc("/archive/guarded.tgz", func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write(tgz) })
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if u, p, ok := r.BasicAuth(); !ok || u != repoUser || p != repoPassword {
			unauthorized.Add(1)
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		mux.ServeHTTP(w, r)
	})
}

func loopbackServer(t *testing.T, h http.Handler, tls bool) *httptest.Server {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewUnstartedServer(h)
	srv.Listener = l
	if tls {
		srv.StartTLS()
	} else {
		srv.Start()
	}
	t.Cleanup(srv.Close)
	return srv
}

// staticAuth gives auth for every URL under prefix.
type staticAuth struct {
	prefix string
	auth   RepoAuth
	err    error
}

func (staticAuth) ByKey(context.Context, string) ([]byte, error) { return nil, errors.New("unused") }
func (staticAuth) FromComponent(context.Context, RemoteChartReference) ([]byte, error) {
	return nil, errors.New("unused")
}
func (staticAuth) OCIChart(context.Context, string) ([]byte, error) { return nil, errors.New("unused") }
func (s staticAuth) ChartRepoAuth(_ context.Context, u string) (RepoAuth, error) {
	if !strings.HasPrefix(u, s.prefix) {
		return RepoAuth{}, nil
	}
	return s.auth, s.err
}

func basic(user, pw string) string {
	return "Basic " + base64.StdEncoding.EncodeToString([]byte(user+":"+pw))
}

// Charts in a chart repository and at an archive URL that require basic
// auth load with the credentials Resources give, and fail terminally,
// without quoting a credential, without them or with wrong ones.
func TestLoadChart_RepositoryCredentials(t *testing.T) {
	var unauthorized atomic.Int32
	srv := loopbackServer(t, guardedRepo(t, authChart(t), &unauthorized), false)
	sources := map[string]Chart{
		"helmChartRepo": {HelmChartRepo: &HelmChartRepo{URL: srv.URL + "/repo", Name: "guarded", Version: "0.2.0"}},
		"archive.remote": {Archive: &Archive{Remote: &struct {
			URL string `json:"url"`
		}{URL: srv.URL + "/archive/guarded.tgz"}}},
	}
	ctx := context.Background()
	for name, c := range sources {
		t.Run(name, func(t *testing.T) {
			good := staticAuth{prefix: srv.URL, auth: RepoAuth{Header: basic(repoUser, repoPassword)}}
			ch, _, err := loadChart(ctx, c, nil, good)
			if err != nil || ch.Metadata.Name != "guarded" {
				t.Fatalf("with credentials: %v", err)
			}
			for what, res := range map[string]Resources{
				"no resources":        nil,
				"no credentials":      staticAuth{prefix: "https://elsewhere.example"},
				"a wrong password":    staticAuth{prefix: srv.URL, auth: RepoAuth{Header: basic(repoUser, "wrong-password")}},
				"credentials invalid": staticAuth{prefix: srv.URL, err: errors.New("secret ns/creds has no key \"authHeader\"")},
			} {
				_, _, err := loadChart(ctx, c, nil, res)
				if err == nil || !failure.IsTerminal(err) {
					t.Fatalf("%s: %v (want a terminal error)", what, err)
				}
				if strings.Contains(err.Error(), repoPassword) || strings.Contains(err.Error(), "wrong-password") {
					t.Errorf("%s: the error quotes a password: %v", what, err)
				}
				if what != "credentials invalid" && !strings.Contains(err.Error(), "401") {
					t.Errorf("%s: %v (want the status)", what, err)
				}
			}
		})
	}
	if unauthorized.Load() == 0 {
		t.Fatal("the server never refused a request: the test proves nothing")
	}
}

// A repository whose certificate is signed by a CA of its own is reached
// with customCAData, and refused without it.
func TestLoadChart_CustomCA(t *testing.T) {
	var unauthorized atomic.Int32
	srv := loopbackServer(t, guardedRepo(t, authChart(t), &unauthorized), true)
	ca := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw})
	c := Chart{HelmChartRepo: &HelmChartRepo{URL: srv.URL + "/repo/", Name: "guarded", Version: "0.2.0"}}
	ctx := context.Background()
	if _, _, err := loadChart(ctx, c, nil, staticAuth{prefix: srv.URL, auth: RepoAuth{Header: basic(repoUser, repoPassword), CAData: ca}}); err != nil {
		t.Fatalf("with the CA: %v", err)
	}
	if _, _, err := loadChart(ctx, c, nil, staticAuth{prefix: srv.URL, auth: RepoAuth{Header: basic(repoUser, repoPassword)}}); err == nil {
		t.Fatal("without the CA the server's certificate must not be trusted")
	}
	_, _, err := loadChart(ctx, c, nil, staticAuth{prefix: srv.URL, auth: RepoAuth{CAData: []byte("not a certificate")}})
	if !failure.IsTerminal(err) || !strings.Contains(err.Error(), "customCAData") {
		t.Fatalf("an unusable CA: %v", err)
	}
}

// The auth header never follows a redirect to another host.
func TestLoadChart_RedirectDropsCredentials(t *testing.T) {
	var leaked atomic.Bool
	tgz := authChart(t)
	other := loopbackServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "" {
			leaked.Store(true)
		}
		_, _ = w.Write(tgz)
	}), false)
	// The same loopback server, named differently: another host to the client.
	otherURL := strings.Replace(other.URL, "127.0.0.1", "localhost", 1)
	first := loopbackServer(t, http.RedirectHandler(otherURL+"/guarded.tgz", http.StatusFound), false)
	c := Chart{Archive: &Archive{Remote: &struct {
		URL string `json:"url"`
	}{URL: first.URL + "/guarded.tgz"}}}
	if _, _, err := loadChart(context.Background(), c, nil, staticAuth{prefix: first.URL, auth: RepoAuth{Header: basic(repoUser, repoPassword)}}); err != nil {
		t.Fatal(err)
	}
	if leaked.Load() {
		t.Fatal("the Authorization header was sent to the host the repository redirected to")
	}
}
