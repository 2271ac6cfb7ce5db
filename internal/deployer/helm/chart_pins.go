package helm

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/url"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/failure"
)

var _ deployer.SourceResolver = (*Deployer)(nil)

// chartSource names where a remote chart comes from, as the key of its
// pin (deployer.Pins): the chart repository's URL with the chart's name
// and version, the OCI reference, or the archive's URL, without any user
// information of the URL. "" for charts that come with the configuration
// or the blueprint (a path, an inline archive) or from a component
// resource, whose content the component's digests pin already.
func chartSource(c Chart) string {
	switch {
	case c.Path != "" || c.ResourceRef != "" || c.FromResource != nil:
		return ""
	case c.Archive != nil && c.Archive.Raw != "":
		return ""
	case c.Archive != nil && c.Archive.Remote != nil:
		return "the chart archive URL " + withoutUser(c.Archive.Remote.URL)
	case c.HelmChartRepo != nil:
		return fmt.Sprintf("the chart repository %s (chart %s version %s)", withoutUser(c.HelmChartRepo.URL),
			c.HelmChartRepo.Name, c.HelmChartRepo.Version)
	case c.Ref != "":
		return "the OCI chart " + c.Ref
	}
	return ""
}

// withoutUser is raw without the user information a URL may carry.
func withoutUser(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.User == nil {
		return raw
	}
	u.User = nil
	return u.String()
}

// Resolve implements deployer.SourceResolver: the digest of the chart
// archive a remote chart's source serves now.
func (d *Deployer) Resolve(ctx context.Context, item deployer.Item) (deployer.Pins, error) {
	cfg, err := ParseConfig(item.Config)
	if err != nil {
		return nil, err
	}
	source := chartSource(cfg.Chart)
	if source == "" {
		return nil, nil
	}
	data, err := chartBytes(ctx, cfg.Chart, d.resources)
	if err != nil {
		return nil, fmt.Errorf("chart: %w", err)
	}
	sum := sha256.Sum256(data)
	return deployer.Pins{source: hex.EncodeToString(sum[:])}, nil
}

// checkChartPin fails, terminally, when the chart loaded with digest is
// not the one pins hold for its source.
func checkChartPin(item string, c Chart, pins deployer.Pins, digest string) (deployer.Pins, error) {
	source := chartSource(c)
	if source == "" {
		return nil, nil
	}
	if err := deployer.CheckPin(item, pins, source, digest); err != nil {
		return nil, failure.NewTerminal("ChartMoved", err)
	}
	return deployer.Pins{source: digest}, nil
}
