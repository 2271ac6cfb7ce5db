package helm

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/url"
	"path"
	"strings"

	"helm.sh/helm/v3/pkg/action"
	"helm.sh/helm/v3/pkg/chart"
	"helm.sh/helm/v3/pkg/chart/loader"
	"helm.sh/helm/v3/pkg/ignore"
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
	ch, digest, err := loadChartSource(ctx, c, files, resources)
	if err != nil {
		return nil, "", err
	}
	// As `helm install` and `helm template` do: a dependency Chart.yaml
	// names must be in charts/, or the chart would install without it.
	if deps := ch.Metadata.Dependencies; len(deps) > 0 {
		if err := action.CheckDependencies(ch, deps); err != nil {
			return nil, "", failure.Terminalf("InvalidChart", "chart %s: %v (run helm dependency build)", ch.Name(), err)
		}
	}
	return ch, digest, nil
}

func loadChartSource(ctx context.Context, c Chart, files fs.FS, resources Resources) (*chart.Chart, string, error) {
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
	buffered, err := chartFiles(files, p, digest)
	if err != nil {
		return fail(err)
	}
	ch, err := loader.LoadFiles(buffered)
	if err != nil {
		return fail(err)
	}
	return ch, hex.EncodeToString(digest.Sum(nil)), nil
}

// chartFiles reads the chart directory dir of files as Helm's
// loader.LoadDir reads one from disk: what the chart's .helmignore (and
// Helm's default rules) ignore is left out — a chart's crds/kustomization.yaml
// is not a CRD — a UTF-8 byte order mark is dropped, only regular files
// are read, and no file exceeds Helm's size limit. The files read go into
// digest, name and content, in the walk's lexical order.
func chartFiles(files fs.FS, dir string, digest io.Writer) ([]*loader.BufferedFile, error) {
	rules := ignore.Empty()
	if b, err := fs.ReadFile(files, path.Join(dir, ignore.HelmIgnore)); err == nil {
		if rules, err = ignore.Parse(bytes.NewReader(b)); err != nil {
			return nil, fmt.Errorf("%s: %w", ignore.HelmIgnore, err)
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	rules.AddDefaults()
	var out []*loader.BufferedFile
	total := 0
	err := fs.WalkDir(files, dir, func(name string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel := strings.TrimPrefix(strings.TrimPrefix(name, dir), "/")
		if rel == "" {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		if rules.Ignore(rel, info) {
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if d.IsDir() {
			return nil
		}
		if !info.Mode().IsRegular() {
			return fmt.Errorf("%s is not a regular file", rel)
		}
		if info.Size() > loader.MaxDecompressedFileSize {
			return fmt.Errorf("%s is larger than %d bytes", rel, loader.MaxDecompressedFileSize)
		}
		b, err := fs.ReadFile(files, name)
		if err != nil {
			return err
		}
		if total += len(b); total > maxChartSize {
			return fmt.Errorf("the chart is larger than %d bytes", maxChartSize)
		}
		b = bytes.TrimPrefix(b, utf8BOM)
		out = append(out, &loader.BufferedFile{Name: rel, Data: b})
		fmt.Fprintf(digest, "%s\x00%d\x00", rel, len(b))
		_, _ = digest.Write(b)
		return nil
	})
	return out, err
}

var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

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

// ociClient is Helm's registry client for ref's registry. Registries on
// loopback are spoken to over plain HTTP, as `helm pull --plain-http` would.
func ociClient(ref string) (*registry.Client, error) {
	opts := []registry.ClientOption{registry.ClientOptWriter(io.Discard)}
	if loopbackHost(strings.SplitN(ref, "/", 2)[0]) {
		opts = append(opts, registry.ClientOptPlainHTTP())
	}
	client, err := registry.NewClient(opts...)
	if err != nil {
		return nil, fmt.Errorf("OCI client: %w", err)
	}
	return client, nil
}

// ociTags lists the tags of an OCI repository ("host/path") that Helm's
// registry client takes for chart versions (semantic versions).
func ociTags(repository string) ([]string, error) {
	client, err := ociClient(repository)
	if err != nil {
		return nil, err
	}
	return client.Tags(repository)
}

// fromOCI pulls a chart from an OCI registry.
func fromOCI(ref string) ([]byte, error) {
	ref = strings.TrimPrefix(ref, "oci://")
	client, err := ociClient(ref)
	if err != nil {
		return nil, err
	}
	result, err := client.Pull(ref, registry.PullOptWithChart(true))
	if err != nil {
		return nil, fmt.Errorf("pulling chart %s: %w", ref, err)
	}
	return result.Chart.Data, nil
}
