package helm

import (
	"encoding/json"
	"fmt"
	"net/url"
	"strings"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
)

// checkPlanFetch refuses, at plan, a chart from a host the item's last
// apply did not fetch from (deployer.PreviewRequest.Applied): the chart's
// location is rendered by an untrusted blueprint and may carry what it
// rendered (an import, a secret) to a host of its choosing, before anyone
// approved the plan. Charts from the blueprint's files, inline archives and
// component resources (read through the registries the user configured)
// are not fetched from a blueprint-named host and always preview.
func checkPlanFetch(c Chart, applied json.RawMessage) error {
	host, remote := chartHost(c)
	if !remote {
		return nil
	}
	if len(applied) > 0 {
		if prev, err := ParseConfig(applied); err == nil {
			if prevHost, ok := chartHost(prev.Chart); ok && prevHost == host {
				return nil
			}
		}
	}
	return fmt.Errorf("the chart is %w: its host %s is not one this deploy item's last apply fetched from, "+
		"and a plan reaches no host a blueprint newly names", deployer.ErrFetchedAtApply, host)
}

// chartHost is the host a remote chart is fetched from (lower case, with
// its port); remote is false for charts not fetched from a location the
// configuration names. An unparsable location has the host "(invalid)",
// which no apply fetched from.
func chartHost(c Chart) (host string, remote bool) {
	switch {
	case c.Path != "" || c.ResourceRef != "" || c.FromResource != nil:
		return "", false
	case c.Archive != nil && c.Archive.Raw != "":
		return "", false
	case c.Archive != nil && c.Archive.Remote != nil:
		return urlHost(c.Archive.Remote.URL), true
	case c.HelmChartRepo != nil:
		return urlHost(c.HelmChartRepo.URL), true
	case c.Ref != "":
		ref := strings.TrimPrefix(c.Ref, "oci://")
		host, _, _ := strings.Cut(ref, "/")
		return strings.ToLower(host), true
	}
	return "", false
}

func urlHost(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return "(invalid)"
	}
	return strings.ToLower(u.Host)
}
