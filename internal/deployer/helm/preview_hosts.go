package helm

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"slices"
	"strings"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
)

// A plan runs before anyone approved it, and a remote chart's location is
// rendered by an untrusted blueprint, which may put what it rendered (an
// import, a secret) into it. So a plan requests of a remote chart only
// what the item's last apply requested (deployer.PreviewRequest.Applied),
// or what that source itself lists:
//
//   - an archive URL (chart.archive.remote): exactly the URL the last
//     apply fetched; the same host is not enough, because a bucket or a
//     shared registry host serves many owners, and the path or query
//     would carry the data to the owner's access log;
//   - a chart repository (chart.helmChartRepo): the repository URL the
//     last apply read; its index.yaml picks the chart's URL, so the name
//     and version the blueprint rendered only select among the index's
//     entries and reach no request;
//   - an OCI reference (chart.ref): the repository the last apply pulled
//     from, with the same tag, or a tag the repository's tag list names
//     (a version bump); another digest, or a tag the registry does not
//     list, is not requested.
//
// Anything else is fetched at apply (deployer.ErrFetchedAtApply). Charts
// from the blueprint's files, inline archives and component resources
// (read through the registries the user configured) always preview.

// OCITagLister is implemented by Resources that list an OCI repository's
// tags with the credentials they pull with.
type OCITagLister interface {
	// OCITags lists the tags of repository ("host/path").
	OCITags(ctx context.Context, repository string) ([]string, error)
}

// checkPlanFetch refuses, at plan, a remote chart location the item's last
// apply did not request and its source does not list (above). Its errors
// name the kind of location, never the location: the URL may carry what
// the blueprint rendered.
func (d *Deployer) checkPlanFetch(ctx context.Context, c Chart, applied json.RawMessage) error {
	now, remote := locationOf(c)
	if !remote {
		return nil
	}
	var before chartLocation
	if len(applied) > 0 {
		if prev, err := ParseConfig(applied); err == nil {
			before, _ = locationOf(prev.Chart)
		}
	}
	switch {
	case before.kind != now.kind || before.base != now.base:
		return fmt.Errorf("the chart is %w: its %s is not the one this deploy item's last apply fetched from, "+
			"and a plan requests no location a blueprint newly names", deployer.ErrFetchedAtApply, now.kind)
	case before.pick == now.pick || now.kind == locationRepo:
		return nil
	case now.kind == locationOCI && !strings.HasPrefix(now.pick, "@"):
		return d.checkListedTag(ctx, now)
	}
	return fmt.Errorf("the chart is %w: its %s names another digest than this deploy item's last apply, "+
		"and a plan requests no location a blueprint newly names", deployer.ErrFetchedAtApply, now.kind)
}

// checkListedTag lets a plan pull the tag of an OCI chart only when the
// repository's tag list names it: the list is asked of the repository the
// last apply pulled from, so the request carries nothing the blueprint
// chose, and the pull then names a tag the registry's owner made.
func (d *Deployer) checkListedTag(ctx context.Context, l chartLocation) error {
	var (
		tags []string
		err  error
	)
	if lister, ok := d.resources.(OCITagLister); ok {
		tags, err = lister.OCITags(ctx, l.base)
	} else if d.resources == nil {
		tags, err = ociTags(l.base)
	} else {
		err = fmt.Errorf("tags are not listed for this source")
	}
	if err != nil || !slices.Contains(tags, strings.TrimPrefix(l.pick, ":")) {
		return fmt.Errorf("the chart is %w: its tag is not the one this deploy item's last apply pulled, "+
			"and the repository's tag list does not name it", deployer.ErrFetchedAtApply)
	}
	return nil
}

// Kinds of remote chart locations, as messages name them.
const (
	locationArchive = "archive URL"
	locationRepo    = "chart repository"
	locationOCI     = "OCI repository"
)

// chartLocation is a remote chart's location split into what a plan must
// have seen requested before (base: the archive URL, the repository URL,
// the OCI repository) and what may pick within it (pick: an OCI ":tag"
// or "@digest").
type chartLocation struct {
	kind, base, pick string
}

// locationOf is c's location; remote is false for charts not fetched from
// a location the configuration names.
func locationOf(c Chart) (l chartLocation, remote bool) {
	switch {
	case c.Path != "" || c.ResourceRef != "" || c.FromResource != nil:
		return chartLocation{}, false
	case c.Archive != nil && c.Archive.Raw != "":
		return chartLocation{}, false
	case c.Archive != nil && c.Archive.Remote != nil:
		return chartLocation{kind: locationArchive, base: c.Archive.Remote.URL}, true
	case c.HelmChartRepo != nil:
		return chartLocation{kind: locationRepo, base: repoBase(c.HelmChartRepo.URL)}, true
	case c.Ref != "":
		repo, pick := splitOCIRef(c.Ref)
		return chartLocation{kind: locationOCI, base: repo, pick: pick}, true
	}
	return chartLocation{}, false
}

// repoBase is a chart repository's URL as fromRepo reads it (one trailing
// slash), with the host in lower case; an unparsable URL stays as it is.
func repoBase(raw string) string {
	base := strings.TrimSuffix(raw, "/") + "/"
	u, err := url.Parse(base)
	if err != nil || u.Host == "" {
		return base
	}
	u.Host = strings.ToLower(u.Host)
	return u.String()
}

// splitOCIRef splits "host/path:tag" or "host/path@digest" (an optional
// oci:// prefix) into the repository, its host in lower case, and the
// ":tag" or "@digest" ("" when neither is given).
func splitOCIRef(ref string) (repository, pick string) {
	ref = strings.TrimPrefix(ref, "oci://")
	if i := strings.Index(ref, "@"); i >= 0 {
		ref, pick = ref[:i], ref[i:]
	}
	if i := strings.LastIndex(ref, ":"); i > strings.LastIndex(ref, "/") {
		ref, pick = ref[:i], ref[i:]+pick
	}
	host, path, _ := strings.Cut(ref, "/")
	return strings.ToLower(host) + "/" + path, pick
}
