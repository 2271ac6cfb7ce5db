package helm

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/url"
	"path"
	"strings"

	"helm.sh/helm/v3/pkg/chart"
	"helm.sh/helm/v3/pkg/chart/loader"
	"helm.sh/helm/v3/pkg/registry"
	"helm.sh/helm/v3/pkg/repo"
	"sigs.k8s.io/yaml"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/failure"
)

// maxChartSize bounds what is downloaded or decoded, so that a wrong URL
// cannot exhaust memory.
const maxChartSize = 64 << 20

// loadChart loads the configured chart and returns it with a digest of
// its content. Failures to reach a server are transient; a chart that
// cannot be found or parsed is terminal.
func loadChart(ctx context.Context, c Chart, files fs.FS, resources Resources) (*chart.Chart, string, error) {
	if c.Path != "" {
		return localChart(files, c.Path)
	}
	data, err := chartBytes(ctx, c, resources)
	if err != nil {
		return nil, "", err
	}
	ch, err := loader.LoadArchive(bytes.NewReader(data))
	if err != nil {
		return nil, "", failure.NewTerminal("InvalidChart", fmt.Errorf("chart is not a valid chart archive: %w", err))
	}
	sum := sha256.Sum256(data)
	return ch, hex.EncodeToString(sum[:]), nil
}

// chartBytes returns the chart as a .tgz archive.
func chartBytes(ctx context.Context, c Chart, resources Resources) ([]byte, error) {
	switch {
	case c.ResourceRef != "" || c.FromResource != nil:
		return resourceChart(ctx, c, resources)
	case c.Archive != nil && c.Archive.Raw != "":
		b, err := base64.StdEncoding.DecodeString(strings.TrimSpace(c.Archive.Raw))
		if err != nil {
			return nil, failure.NewTerminal("InvalidChart", fmt.Errorf("chart.archive.raw is not base64: %w", err))
		}
		return b, nil
	case c.Archive != nil:
		return get(ctx, c.Archive.Remote.URL, resources)
	case c.HelmChartRepo != nil:
		return fromRepo(ctx, *c.HelmChartRepo, resources)
	case resources != nil:
		return resources.OCIChart(ctx, c.Ref)
	default:
		return fromOCI(c.Ref)
	}
}

// localChart loads a chart directory or archive from the blueprint files.
func localChart(files fs.FS, p string) (*chart.Chart, string, error) {
	if files == nil {
		return nil, "", failure.Terminalf("InvalidChart", "chart.path %q: the deploy item has no blueprint files to resolve it against", p)
	}
	p = path.Clean(strings.TrimPrefix(p, "./"))
	fail := func(err error) (*chart.Chart, string, error) {
		return nil, "", failure.Terminalf("InvalidChart", "chart.path %q: %v", p, err)
	}
	info, err := fs.Stat(files, p)
	if err != nil {
		return fail(err)
	}
	digest := sha256.New()
	if !info.IsDir() {
		b, err := fs.ReadFile(files, p)
		if err != nil {
			return fail(err)
		}
		ch, err := loader.LoadArchive(bytes.NewReader(b))
		if err != nil {
			return fail(err)
		}
		digest.Write(b)
		return ch, hex.EncodeToString(digest.Sum(nil)), nil
	}
	var buffered []*loader.BufferedFile
	err = fs.WalkDir(files, p, func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(files, name)
		if err != nil {
			return err
		}
		rel := strings.TrimPrefix(strings.TrimPrefix(name, p), "/")
		buffered = append(buffered, &loader.BufferedFile{Name: rel, Data: b})
		// WalkDir visits in lexical order, so the digest is stable.
		fmt.Fprintf(digest, "%s\x00%d\x00", rel, len(b))
		digest.Write(b)
		return nil
	})
	if err != nil {
		return fail(err)
	}
	ch, err := loader.LoadFiles(buffered)
	if err != nil {
		return fail(err)
	}
	return ch, hex.EncodeToString(digest.Sum(nil)), nil
}

// fromRepo resolves name and version in the repository's index.yaml and
// downloads the chart (relative chart URLs are relative to the
// repository), both with the credentials resources give for their URLs.
func fromRepo(ctx context.Context, r HelmChartRepo, resources Resources) ([]byte, error) {
	base := strings.TrimSuffix(r.URL, "/") + "/"
	raw, err := get(ctx, base+"index.yaml", resources)
	if err != nil {
		return nil, err
	}
	var index repo.IndexFile
	if err := yaml.Unmarshal(raw, &index); err != nil {
		return nil, failure.Terminalf("InvalidChartRepo", "%sindex.yaml: %v", base, err)
	}
	index.SortEntries()
	cv, err := index.Get(r.Name, r.Version)
	if err != nil || len(cv.URLs) == 0 {
		return nil, failure.Terminalf("ChartNotFound", "chart %s version %q is not in %s", r.Name, r.Version, base)
	}
	chartURL, err := url.Parse(cv.URLs[0])
	if err != nil {
		return nil, failure.Terminalf("InvalidChartRepo", "chart %s: url %q: %v", r.Name, cv.URLs[0], err)
	}
	baseURL, _ := url.Parse(base)
	return get(ctx, baseURL.ResolveReference(chartURL).String(), resources)
}

// loopbackHost says whether host (with an optional port) is exactly
// "localhost" or a loopback IP. Only those are spoken to over plain HTTP: a
// prefix test would also match "localhost.attacker.example".
func loopbackHost(host string) bool {
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// fromOCI pulls a chart from an OCI registry. Registries on loopback are
// spoken to over plain HTTP, as `helm pull --plain-http` would.
func fromOCI(ref string) ([]byte, error) {
	ref = strings.TrimPrefix(ref, "oci://")
	opts := []registry.ClientOption{registry.ClientOptWriter(io.Discard)}
	if loopbackHost(strings.SplitN(ref, "/", 2)[0]) {
		opts = append(opts, registry.ClientOptPlainHTTP())
	}
	client, err := registry.NewClient(opts...)
	if err != nil {
		return nil, fmt.Errorf("OCI client: %w", err)
	}
	result, err := client.Pull(ref, registry.PullOptWithChart(true))
	if err != nil {
		return nil, fmt.Errorf("pulling chart %s: %w", ref, err)
	}
	return result.Chart.Data, nil
}
