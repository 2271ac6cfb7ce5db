package helm

import (
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"path"
	"strings"

	"helm.sh/helm/v3/pkg/chart"
	"helm.sh/helm/v3/pkg/release"
	"helm.sh/helm/v3/pkg/releaseutil"
	helmtime "helm.sh/helm/v3/pkg/time"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/failure"
)

// Helm's Secret driver keeps a release revision as one Secret whose data
// is the release — chart (its templates, files and values), the values it
// was installed with, the rendered manifest, hooks and notes — as JSON,
// gzip-compressed, base64-encoded. The API server refuses a Secret whose
// data exceed 1 MiB; Helm finds that out only when it writes the record,
// after the chart's CRDs and namespace may have been created. So the
// record is built and measured as Helm would write it, at plan (Preview)
// and again before an install or upgrade (gateRelease), and a release
// that would not fit is refused with what to do instead: keep releases
// with Helm's SQL driver (storage.go).

// secretDataLimit is the most data a Secret may hold (Kubernetes'
// MaxSecretSize).
const secretDataLimit = 1 << 20

// recordSlack is what the record Helm writes may exceed the one measured:
// its timestamps, description and status differ in a few bytes from the
// measured ones (a pending record is written first, then the deployed
// one), and gzip's output moves with them.
const recordSlack = 512

// recordSize is the size of the Secret data Helm's Secret driver writes
// for rel: base64 of its JSON compressed with gzip.BestCompression, as
// Helm's driver encodes it.
func recordSize(rel *release.Release) (int, error) {
	b, err := json.Marshal(rel)
	if err != nil {
		return 0, err
	}
	return compressedSize(b)
}

// recordBound is recordSize, or — when even uncompressed the record
// would fit — an upper bound of it that needs no compression: gzip adds
// at most 5 bytes per 16 KiB block it cannot compress, plus its header
// and trailer. Most charts take that way, and compressing a big chart's
// JSON at gzip's best level costs more than rendering it.
func recordBound(rel *release.Release) (int, error) {
	b, err := json.Marshal(rel)
	if err != nil {
		return 0, err
	}
	if bound := base64.StdEncoding.EncodedLen(len(b) + 5*(len(b)/(16<<10)+1) + 32); bound+recordSlack <= secretDataLimit {
		return bound, nil
	}
	return compressedSize(b)
}

// compressedSize is the base64 length of b compressed as Helm does.
func compressedSize(b []byte) (int, error) {
	var buf bytes.Buffer
	w, err := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	if err != nil {
		return 0, err
	}
	if _, err := w.Write(b); err != nil {
		return 0, err
	}
	if err := w.Close(); err != nil {
		return 0, err
	}
	return base64.StdEncoding.EncodedLen(buf.Len()), nil
}

// record is the release Helm's install or upgrade would record for the
// rendered files (engine output, NOTES.txt included) of r: the manifest
// joined as Helm joins it and passed through stamp, the hooks, the notes
// of the chart itself, the values as given. It runs in the sandbox's
// child, which rendered files.
func (r chartRender) record(ch *chart.Chart, files map[string]string, stamp map[string]string) (*release.Release, error) {
	rest := make(map[string]string, len(files))
	var notes strings.Builder
	for name, content := range files {
		if strings.HasSuffix(name, "NOTES.txt") {
			if name == path.Join(ch.Name(), "templates", "NOTES.txt") {
				notes.WriteString(content)
			}
			continue
		}
		rest[name] = content
	}
	hooks, manifests, err := releaseutil.SortManifests(rest, nil, releaseutil.InstallOrder)
	if err != nil {
		return nil, failure.NewTerminal("RenderFailed", fmt.Errorf("chart %s: %w", ch.Name(), err))
	}
	b := new(bytes.Buffer)
	for _, m := range manifests {
		fmt.Fprintf(b, "---\n# Source: %s\n%s\n", m.Name, m.Content)
	}
	if len(stamp) > 0 {
		if b, err = stamper(stamp).Run(b); err != nil {
			return nil, failure.NewTerminal("RenderFailed", fmt.Errorf("chart %s: %w", ch.Name(), err))
		}
	}
	now := helmtime.Now()
	info := &release.Info{FirstDeployed: now, LastDeployed: now, Status: release.StatusPendingInstall, Description: "Initial install underway", Notes: notes.String()}
	if r.options.IsUpgrade {
		info.Status, info.Description = release.StatusPendingUpgrade, "Preparing upgrade"
	}
	return &release.Release{Name: r.options.Name, Namespace: r.options.Namespace, Chart: ch, Config: r.cfg.values(),
		Manifest: b.String(), Hooks: hooks, Info: info, Version: r.options.Revision}, nil
}

// recordError refuses a release whose record, size bytes as measured,
// would not fit a Secret. The error wraps deployer.ErrBeyondLimit, which
// fails the plan, and is terminal: no retry makes it fit.
func recordError(itemID, namespace, name string, size int) error {
	if size+recordSlack <= secretDataLimit {
		return nil
	}
	installation, item := splitItemID(itemID)
	return failure.NewTerminal(failure.ReasonTooLarge, beyondLimit{fmt.Errorf("installation %q, deploy item %q: Helm's record of release %s/%s would be %d bytes "+
		"(chart, values and rendered manifest, compressed as Helm's Secret driver keeps a revision), above the %d bytes a Secret may hold, "+
		"so Helm could not record it; nothing was deployed. Keep Helm releases in PostgreSQL with Helm's SQL driver "+
		"(the provider's helm_storage = { driver = \"sql\" }), or make the chart and its values smaller",
		installation, item, namespace, name, size, secretDataLimit)})
}

// beyondLimit is an error that is deployer.ErrBeyondLimit without
// saying so in its message.
type beyondLimit struct{ error }

func (e beyondLimit) Unwrap() error        { return e.error }
func (e beyondLimit) Is(target error) bool { return target == deployer.ErrBeyondLimit }

// splitItemID splits a deploy item ID ("<root>/<sub>/.../<item>") into
// the installation's path and the item's name.
func splitItemID(id string) (installation, item string) {
	if i := strings.LastIndex(id, "/"); i >= 0 {
		return id[:i], id[i+1:]
	}
	return "", id
}
