package helm

import (
	"context"
	"encoding/json"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/failure"
)

// RemoteChartReference is Landscaper's chart.fromResource: a resource of
// a component version, given by reference or inline.
type RemoteChartReference struct {
	// Ref is a ComponentDescriptorReference {repositoryContext,
	// componentName, version}.
	Ref json.RawMessage `json:"ref,omitempty"`
	// Inline is a component descriptor.
	Inline       json.RawMessage `json:"inline,omitempty"`
	ResourceName string          `json:"resourceName"`
}

// Resources reads chart archives that component resources name. The
// deployer knows nothing of components: whoever registers it (the
// provider) supplies this, backed by the component descriptors and OCI
// registries of the installations.
type Resources interface {
	// ByKey returns the content of the resource a resource key names.
	ByKey(ctx context.Context, key string) ([]byte, error)
	// FromComponent returns the content of ref's resource.
	FromComponent(ctx context.Context, ref RemoteChartReference) ([]byte, error)
	// OCIChart returns the chart archive of an OCI chart reference
	// (chart.ref), read with the provider's registry credentials.
	OCIChart(ctx context.Context, ref string) ([]byte, error)
}

// WithResources lets the deployer read charts from component resources
// (chart.resourceRef, chart.fromResource).
func (d *Deployer) WithResources(r Resources) *Deployer {
	d.resources = r
	return d
}

// Using returns a copy of the deployer that reads charts through r (one
// installation's credentials, say). The copy shares the clients and the
// release locks of d.
func (d *Deployer) Using(r Resources) *Deployer {
	c := *d
	c.resources = r
	return &c
}

// resourceChart returns the chart archive a component resource holds.
func resourceChart(ctx context.Context, c Chart, r Resources) ([]byte, error) {
	if r == nil {
		return nil, failure.Terminalf("InvalidChart", "charts from component resources cannot be read: no component access is configured")
	}
	if c.ResourceRef != "" {
		return r.ByKey(ctx, c.ResourceRef)
	}
	return r.FromComponent(ctx, *c.FromResource)
}
