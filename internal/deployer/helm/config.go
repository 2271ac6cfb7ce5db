package helm

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer/manifest"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/failure"
)

// Type is the deploy item type this deployer handles.
const Type = deployer.HelmType

// ProviderConfiguration is Landscaper's helm deployer configuration
// (helm.deployer.landscaper.gardener.cloud/v1alpha1).
type ProviderConfiguration struct {
	APIVersion      string                        `json:"apiVersion,omitempty"`
	Kind            string                        `json:"kind,omitempty"`
	Kubeconfig      string                        `json:"kubeconfig,omitempty"`
	UpdateStrategy  manifest.UpdateStrategy       `json:"updateStrategy,omitempty"`
	ReadinessChecks manifest.ReadinessCheckConfig `json:"readinessChecks,omitempty"`
	CreateNamespace bool                          `json:"createNamespace,omitempty"`
	Chart           Chart                         `json:"chart"`
	Name            string                        `json:"name"`
	Namespace       string                        `json:"namespace"`
	Values          json.RawMessage               `json:"values,omitempty"`
	// ExportsFromManifests is Landscaper's older name for Exports.
	ExportsFromManifests []manifest.Export `json:"exportsFromManifests,omitempty"`
	Exports              *manifest.Exports `json:"exports,omitempty"`
	// HelmDeployment (default true) makes a real Helm release; false
	// renders the chart and applies it like the manifest deployer.
	HelmDeployment             *bool                    `json:"helmDeployment,omitempty"`
	HelmDeploymentConfig       *DeploymentConfig        `json:"helmDeploymentConfig,omitempty"`
	DeletionGroups             []manifest.DeletionGroup `json:"deletionGroups,omitempty"`
	DeletionGroupsDuringUpdate []manifest.DeletionGroup `json:"deletionGroupsDuringUpdate,omitempty"`
	ContinuousReconcile        json.RawMessage          `json:"continuousReconcile,omitempty"`
}

// Chart says where the chart comes from; exactly one source is set.
type Chart struct {
	// Ref is an OCI reference ("registry/repo/chart:version").
	Ref           string         `json:"ref,omitempty"`
	Archive       *Archive       `json:"archive,omitempty"`
	HelmChartRepo *HelmChartRepo `json:"helmChartRepo,omitempty"`
	// Path is this provider's extension: a chart directory or .tgz
	// archive, relative to the blueprint's files (deployer.Item.Files).
	Path string `json:"path,omitempty"`
	// FromResource names a resource of a component version; ResourceRef
	// is a resource key (the template function getResourceKey). Both are
	// read through the deployer's Resources.
	FromResource *RemoteChartReference `json:"fromResource,omitempty"`
	ResourceRef  string                `json:"resourceRef,omitempty"`
}

// Archive is a chart archive, inline (base64) or at a URL.
type Archive struct {
	Raw    string `json:"raw,omitempty"`
	Remote *struct {
		URL string `json:"url"`
	} `json:"remote,omitempty"`
}

// HelmChartRepo names a chart in an HTTP chart repository.
type HelmChartRepo struct {
	URL     string `json:"helmChartRepoUrl"`
	Name    string `json:"helmChartName"`
	Version string `json:"helmChartVersion"`
}

// DeploymentConfig holds the options of the Helm actions: those Landscaper's
// Helm deployer hands to Helm (its realhelmdeployer).
type DeploymentConfig struct {
	Install   ActionOptions    `json:"install,omitempty"`
	Upgrade   ActionOptions    `json:"upgrade,omitempty"`
	Uninstall UninstallOptions `json:"uninstall,omitempty"`
}

// ActionOptions are the options of an install or upgrade.
type ActionOptions struct {
	Atomic bool `json:"atomic,omitempty"`
	Force  bool `json:"force,omitempty"`
	// SkipSchemaValidation does not check the values against the chart's
	// values.schema.json (Landscaper v0.141), at apply and in the plan's
	// preview alike.
	SkipSchemaValidation bool `json:"skipSchemaValidation,omitempty"`
	// TakeOwnership adopts objects that exist without Helm's ownership
	// annotations of this release (Landscaper v0.144, helm --take-ownership).
	TakeOwnership bool          `json:"takeOwnership,omitempty"`
	Wait          bool          `json:"wait,omitempty"`
	Timeout       *api.Duration `json:"timeout,omitempty"`
}

// UninstallOptions are the options of an uninstall.
type UninstallOptions struct {
	// Wait is accepted; a destroy always waits until the release's objects
	// are gone (Delete follows them with watches).
	Wait    bool          `json:"wait,omitempty"`
	Timeout *api.Duration `json:"timeout,omitempty"`
}

// timeout returns the action timeout: the configured one, else fallback.
func (o UninstallOptions) timeout(fallback time.Duration) time.Duration {
	return actionTimeout(o.Timeout, fallback)
}

// timeout returns the action timeout: the configured one, else fallback.
func (o ActionOptions) timeout(fallback time.Duration) time.Duration {
	return actionTimeout(o.Timeout, fallback)
}

func actionTimeout(configured *api.Duration, fallback time.Duration) time.Duration {
	if configured != nil && configured.Effective() > 0 {
		return configured.Effective()
	}
	return fallback
}

// ParseConfig decodes and validates a helm deploy item configuration.
// Every error is terminal.
func ParseConfig(raw json.RawMessage) (*ProviderConfiguration, error) {
	var cfg ProviderConfiguration
	if len(raw) == 0 {
		return nil, invalid(errors.New("config is empty"))
	}
	if err := json.Unmarshal(raw, &cfg); err != nil {
		return nil, invalid(err)
	}
	if err := cfg.validate(); err != nil {
		return nil, invalid(err)
	}
	return &cfg, nil
}

func invalid(err error) error {
	return failure.NewTerminal("InvalidConfig", fmt.Errorf("invalid helm configuration: %w", err))
}

func (c *ProviderConfiguration) validate() error {
	if c.Kind != "" && c.Kind != "ProviderConfiguration" {
		return fmt.Errorf("kind is %q, want ProviderConfiguration", c.Kind)
	}
	if c.Kubeconfig != "" {
		return errors.New("config.kubeconfig is not supported: use the deploy item's target")
	}
	if c.Name == "" {
		return errors.New("name (the release name) is required")
	}
	if c.Namespace == "" {
		return errors.New("namespace is required")
	}
	sources := 0
	for _, set := range []bool{c.Chart.Ref != "", c.Chart.Archive != nil, c.Chart.HelmChartRepo != nil, c.Chart.Path != "",
		c.Chart.FromResource != nil, c.Chart.ResourceRef != ""} {
		if set {
			sources++
		}
	}
	switch {
	case sources != 1:
		return errors.New("set exactly one of chart.ref, chart.archive, chart.helmChartRepo, chart.path, chart.fromResource, chart.resourceRef")
	case c.Chart.FromResource != nil && c.Chart.FromResource.ResourceName == "":
		return errors.New("chart.fromResource.resourceName is required")
	case c.Chart.FromResource != nil && (len(c.Chart.FromResource.Ref) == 0) == (len(c.Chart.FromResource.Inline) == 0):
		return errors.New("chart.fromResource: set exactly one of ref and inline (the component descriptor)")
	case c.Chart.Archive != nil && (c.Chart.Archive.Raw == "") == (c.Chart.Archive.Remote == nil):
		return errors.New("chart.archive: set exactly one of raw and remote.url")
	case c.Chart.HelmChartRepo != nil && (c.Chart.HelmChartRepo.URL == "" || c.Chart.HelmChartRepo.Name == ""):
		return errors.New("chart.helmChartRepo: helmChartRepoUrl and helmChartName are required")
	}
	if err := c.ReadinessChecks.Validate(); err != nil {
		return err
	}
	if err := manifest.ValidateExports("exportsFromManifests", c.ExportsFromManifests, false); err != nil {
		return err
	}
	if c.Exports != nil {
		if err := manifest.ValidateExports("exports.exports", c.Exports.Exports, false); err != nil {
			return err
		}
	}
	if err := manifest.ValidateDeletionGroups("deletionGroups", c.DeletionGroups); err != nil {
		return err
	}
	if err := manifest.ValidateDeletionGroups("deletionGroupsDuringUpdate", c.DeletionGroupsDuringUpdate); err != nil {
		return err
	}
	if len(c.Values) > 0 && string(c.Values) != "null" {
		var v map[string]any
		if err := json.Unmarshal(c.Values, &v); err != nil {
			return fmt.Errorf("values must be an object: %w", err)
		}
	}
	return nil
}

// values returns the configured values as a map. Numbers are float64, as
// Helm reads a values file, except integers a float64 would round (beyond
// 2^53: IDs, byte counts): those stay exact, as int64 or beyond it as a
// json.Number, so the chart renders every digit. (Helm and Landscaper
// round them; charts that compute with them see a number either way.)
func (c *ProviderConfiguration) values() map[string]any {
	v := map[string]any{}
	_ = api.DecodeExact(c.Values, &v, api.AllowTrailing) // Validate refused values that are no object
	api.MapNumbers(v, helmNumber)
	return v
}

// helmNumber is a values number as values() says.
func helmNumber(n json.Number) any {
	if strings.ContainsAny(n.String(), ".eE") {
		if f, err := n.Float64(); err == nil {
			return f
		}
		return n // beyond float64's range: its digits
	}
	i, err := n.Int64()
	switch {
	case err != nil:
		return n // an integer beyond int64: its digits
	case i >= -1<<53 && i <= 1<<53:
		return float64(i)
	}
	return i
}

// realRelease reports whether the item is a real Helm release.
func (c *ProviderConfiguration) realRelease() bool {
	return c.HelmDeployment == nil || *c.HelmDeployment
}

func (c *ProviderConfiguration) exports() []manifest.Export {
	out := append([]manifest.Export(nil), c.ExportsFromManifests...)
	if c.Exports != nil {
		out = append(out, c.Exports.Exports...)
	}
	return out
}
