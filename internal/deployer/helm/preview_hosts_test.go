package helm_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"

	"helm.sh/helm/v3/pkg/repo"
	"sigs.k8s.io/yaml"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer/helm"
)

// requestLog records the paths (with queries) a test server was asked for.
type requestLog struct {
	mu    sync.Mutex
	paths []string
}

func (l *requestLog) add(r *http.Request) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.paths = append(l.paths, r.URL.RequestURI())
}

func (l *requestLog) reset() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.paths = nil
}

func (l *requestLog) carrying(s string) []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []string
	for _, p := range l.paths {
		if strings.Contains(p, s) {
			out = append(out, p)
		}
	}
	return out
}

func (l *requestLog) count() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.paths)
}

// planFetchCase is one preview of a remote chart whose location carries
// the canary, after a last apply that fetched applied.
type planFetchCase struct {
	now, applied map[string]any // chart sources
	fetch        bool
}

// runPlanFetchCases previews each case's chart and checks that a plan
// reaches the server only where the case allows it, and that no request
// and no error carries the canary the blueprint put into the location.
func runPlanFetchCases(t *testing.T, log *requestLog, cases map[string]planFetchCase) {
	t.Helper()
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			log.reset()
			var applied []byte
			if c.applied != nil {
				applied = helmConfig(t, "apps", c.applied, nil)
			}
			req := deployer.PreviewRequest{Item: deployer.Item{ID: "root/web", Name: "web", Type: helm.Type,
				Config: helmConfig(t, "apps", c.now, nil)}, Applied: applied}
			p, err := helm.New(nil).Preview(context.Background(), req)
			if leaked := log.carrying("s3cr3t"); len(leaked) > 0 {
				t.Errorf("the plan sent the canary to the server: %v", leaked)
			}
			if !c.fetch {
				if !errors.Is(err, deployer.ErrFetchedAtApply) {
					t.Fatalf("want ErrFetchedAtApply, got %v", err)
				}
				if strings.Contains(err.Error(), "s3cr3t") {
					t.Errorf("the error shows the location: %v", err)
				}
				return
			}
			if err != nil || len(p.Objects) == 0 || log.count() == 0 {
				t.Fatalf("want a preview, got %v, %d objects, %d requests", err, len(p.Objects), log.count())
			}
		})
	}
}

// TestPreview_RemoteChartLocations proves that a plan requests of a remote
// chart only what the item's last apply requested, or what the source
// lists: the same host is not enough (a bucket or shared registry host
// serves many owners, and the URL's path or query would carry what the
// blueprint rendered to that owner's access log).
func TestPreview_RemoteChartLocations(t *testing.T) {
	tgz := archive(t, previewChart(t))
	var log requestLog
	base := serveLoopback(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		log.add(r)
		_, _ = w.Write(tgz)
	}))
	remote := func(u string) map[string]any {
		return map[string]any{"archive": map[string]any{"remote": map[string]any{"url": u}}}
	}
	runPlanFetchCases(t, &log, map[string]planFetchCase{
		"new item":             {now: remote(base + "/app-2.0.0.tgz?leak=s3cr3t")},
		"moved host":           {now: remote(base + "/app-2.0.0.tgz?leak=s3cr3t"), applied: remote("https://charts.example.com/app-1.0.0.tgz")},
		"same host, other URL": {now: remote(base + "/s3cr3t/app-1.0.0.tgz"), applied: remote(base + "/app-1.0.0.tgz")},
		"same URL":             {now: remote(base + "/app-1.0.0.tgz"), applied: remote(base + "/app-1.0.0.tgz"), fetch: true},
		"inline then url":      {now: remote(base + "/app-1.0.0.tgz?leak=s3cr3t"), applied: rawChart(t, previewChart(t))},
	})
}

// TestPreview_ChartRepositoryVersions: a chart repository the last apply
// read is read again at plan for another name or version, because its
// index picks the URL; a name or version the index lacks reaches no
// further request, and another repository on the same host none at all.
func TestPreview_ChartRepositoryVersions(t *testing.T) {
	ch := previewChart(t)
	tgz := archive(t, ch)
	index := repo.NewIndexFile()
	for _, v := range []string{"1.0.0", "2.0.0"} {
		meta := *ch.Metadata
		meta.Version = v
		if err := index.MustAdd(&meta, "charts/app-"+v+".tgz", "", "sha256:unchecked"); err != nil {
			t.Fatal(err)
		}
	}
	indexYAML, err := yaml.Marshal(index)
	if err != nil {
		t.Fatal(err)
	}
	var log requestLog
	base := serveLoopback(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		log.add(r)
		if strings.HasSuffix(r.URL.Path, "/index.yaml") {
			_, _ = w.Write(indexYAML)
			return
		}
		_, _ = w.Write(tgz)
	}))
	repoOf := func(u, version string) map[string]any {
		return map[string]any{"helmChartRepo": map[string]any{"helmChartRepoUrl": u, "helmChartName": ch.Name(), "helmChartVersion": version}}
	}
	runPlanFetchCases(t, &log, map[string]planFetchCase{
		"version bump":          {now: repoOf(base+"/repo", "2.0.0"), applied: repoOf(base+"/repo/", "1.0.0"), fetch: true},
		"other repository path": {now: repoOf(base+"/s3cr3t", "1.0.0"), applied: repoOf(base+"/repo", "1.0.0")},
	})
	t.Run("version the index lacks", func(t *testing.T) {
		log.reset()
		req := deployer.PreviewRequest{Item: deployer.Item{ID: "root/web", Name: "web", Type: helm.Type,
			Config: helmConfig(t, "apps", repoOf(base+"/repo", "9.9.9-s3cr3t"), nil)}, Applied: helmConfig(t, "apps", repoOf(base+"/repo", "1.0.0"), nil)}
		if _, err := helm.New(nil).Preview(context.Background(), req); err == nil {
			t.Fatal("a version the index lacks was previewed")
		}
		if leaked := log.carrying("s3cr3t"); len(leaked) > 0 || log.count() != 1 {
			t.Errorf("want the index alone, got %v", log.paths)
		}
	})
}

// TestPreview_OCIChartTags: an OCI repository the last apply pulled from
// is pulled at plan with the same tag, or with a tag the repository's tag
// list names; a tag it does not list, another digest or another
// repository on the same registry is not requested.
func TestPreview_OCIChartTags(t *testing.T) {
	var log requestLog
	host := strings.TrimPrefix(serveOCIChart(t, archive(t, previewChart(t)), []string{"1.0.0", "2.0.0"}, &log), "http://")
	ref := func(r string) map[string]any { return map[string]any{"ref": host + r} }
	runPlanFetchCases(t, &log, map[string]planFetchCase{
		"same tag":         {now: ref("/charts/app:1.0.0"), applied: ref("/charts/app:1.0.0"), fetch: true},
		"listed tag":       {now: ref("/charts/app:2.0.0"), applied: ref("/charts/app:1.0.0"), fetch: true},
		"oci scheme":       {now: map[string]any{"ref": "oci://" + host + "/charts/app:2.0.0"}, applied: ref("/charts/app:1.0.0"), fetch: true},
		"unlisted tag":     {now: ref("/charts/app:1.0.0-s3cr3t"), applied: ref("/charts/app:1.0.0")},
		"other repository": {now: ref("/s3cr3t/app:1.0.0"), applied: ref("/charts/app:1.0.0")},
		"other digest": {now: ref("/charts/app@sha256:" + hex.EncodeToString([]byte("s3cr3t-s3cr3t-s3cr3t-s3cr3t-s3c"))),
			applied: ref("/charts/app:1.0.0")},
		"new item": {now: ref("/charts/app:2.0.0")},
	})
}

// serveOCIChart serves a Helm chart archive as an OCI registry on
// loopback under charts/app with tags, and returns its base URL.
func serveOCIChart(t *testing.T, tgz []byte, tags []string, log *requestLog) string {
	t.Helper()
	digestOf := func(b []byte) string { s := sha256.Sum256(b); return "sha256:" + hex.EncodeToString(s[:]) }
	config := []byte(`{"name":"preview","version":"1.0.0","apiVersion":"v2"}`)
	manifest, err := json.Marshal(map[string]any{"schemaVersion": 2, "mediaType": "application/vnd.oci.image.manifest.v1+json",
		"config": map[string]any{"mediaType": "application/vnd.cncf.helm.config.v1+json", "digest": digestOf(config), "size": len(config)},
		"layers": []any{map[string]any{"mediaType": "application/vnd.cncf.helm.chart.content.v1.tar+gzip", "digest": digestOf(tgz), "size": len(tgz)}}})
	if err != nil {
		t.Fatal(err)
	}
	blobs := map[string][]byte{digestOf(config): config, digestOf(tgz): tgz}
	return serveLoopback(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		log.add(r)
		p, _ := url.PathUnescape(r.URL.Path)
		switch {
		case p == "/v2/":
			w.WriteHeader(http.StatusOK)
		case p == "/v2/charts/app/tags/list":
			w.Header().Set("Content-Type", "application/json")
			_ = json.NewEncoder(w).Encode(map[string]any{"name": "charts/app", "tags": tags})
		case strings.HasPrefix(p, "/v2/charts/app/manifests/"):
			name := strings.TrimPrefix(p, "/v2/charts/app/manifests/")
			if name != digestOf(manifest) && !contains(tags, name) {
				http.Error(w, `{"errors":[{"code":"MANIFEST_UNKNOWN"}]}`, http.StatusNotFound)
				return
			}
			w.Header().Set("Content-Type", "application/vnd.oci.image.manifest.v1+json")
			w.Header().Set("Docker-Content-Digest", digestOf(manifest))
			w.Header().Set("Content-Length", fmt.Sprint(len(manifest)))
			if r.Method != http.MethodHead {
				_, _ = w.Write(manifest)
			}
		case strings.HasPrefix(p, "/v2/charts/app/blobs/"):
			b, ok := blobs[strings.TrimPrefix(p, "/v2/charts/app/blobs/")]
			if !ok {
				http.Error(w, `{"errors":[{"code":"BLOB_UNKNOWN"}]}`, http.StatusNotFound)
				return
			}
			w.Header().Set("Content-Length", fmt.Sprint(len(b)))
			w.Header().Set("Docker-Content-Digest", digestOf(b))
			if r.Method != http.MethodHead {
				_, _ = w.Write(b)
			}
		default:
			http.Error(w, `{"errors":[{"code":"NAME_UNKNOWN"}]}`, http.StatusNotFound)
		}
	}))
}

func contains(list []string, s string) bool {
	for _, e := range list {
		if e == s {
			return true
		}
	}
	return false
}
