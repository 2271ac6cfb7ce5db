package hostaccess

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint/component"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint/component/ocireg"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer/helm"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/failure"
)

// ComponentAccess is one provider instance's way to component versions:
// the registry, and every component the installations of this Terraform
// command resolved. The Helm deployer reads chart resources through it
// (chart.resourceRef, chart.fromResource) without knowing components.
type ComponentAccess struct {
	Registry *component.Registry
	// host reads the Landscaper Contexts installations name.
	Host *HostCluster
	// Learn registers credentials read from the host cluster (a chart
	// repository's auth header) as secrets to mask; nil: none.
	Learn func(values ...string)

	mu    sync.Mutex
	known map[string]*component.Component
	// scopes are the Contexts read, by "namespace/name".
	scopes map[string]*ComponentScope
}

var (
	_ helm.Resources    = (*ComponentAccess)(nil)
	_ helm.OCITagLister = (*ComponentAccess)(nil)
)

// Remember records c and the components it references, so resource keys
// naming them can be read by deployers later in the same command.
func (a *ComponentAccess) Remember(c *component.Component) {
	if a == nil || c == nil {
		return
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.known == nil {
		a.known = map[string]*component.Component{}
	}
	for _, x := range c.Tree() {
		key := x.Descriptor.Component.Name + ":" + x.Descriptor.Component.Version
		if _, ok := a.known[key]; !ok {
			a.known[key] = x
		}
	}
}

func (a *ComponentAccess) lookup(name, version string) *component.Component {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.known[name+":"+version]
}

// ByKey implements helm.Resources: the key names a component version an
// installation of this command resolved, and one of its resources.
func (a *ComponentAccess) ByKey(ctx context.Context, key string) ([]byte, error) {
	name, version, sel, err := component.ParseResourceKey(key)
	if err != nil {
		return nil, failure.NewTerminal("InvalidChart", fmt.Errorf("chart.resourceRef: %w", err))
	}
	c := a.lookup(name, version)
	if c == nil {
		return nil, failure.Terminalf("InvalidChart", "chart.resourceRef: component %s:%s is not a component of this installation", name, version)
	}
	return fetchChart(ctx, c, sel)
}

// FromComponent implements helm.Resources for chart.fromResource: a
// component version by reference (read from its registry, or known from
// an installation when the reference has no repository context) or inline.
func (a *ComponentAccess) FromComponent(ctx context.Context, ref helm.RemoteChartReference) ([]byte, error) {
	return a.fromComponent(ctx, a.Registry, ref)
}

// fromComponent is FromComponent reading from registries through reg.
func (a *ComponentAccess) fromComponent(ctx context.Context, reg *component.Registry, ref helm.RemoteChartReference) ([]byte, error) {
	var c *component.Component
	switch {
	case len(ref.Inline) > 0:
		inline, err := component.FromInline(ref.Inline)
		if err != nil {
			return nil, failure.NewTerminal("InvalidChart", fmt.Errorf("chart.fromResource.inline: %w", err))
		}
		inline.UseRegistry(reg)
		c = inline
	default:
		var r struct {
			RepositoryContext json.RawMessage `json:"repositoryContext"`
			ComponentName     string          `json:"componentName"`
			Version           string          `json:"version"`
		}
		if err := json.Unmarshal(ref.Ref, &r); err != nil || r.ComponentName == "" || r.Version == "" {
			return nil, failure.Terminalf("InvalidChart", "chart.fromResource.ref needs componentName and version")
		}
		if c = a.lookup(r.ComponentName, r.Version); c == nil {
			if len(r.RepositoryContext) == 0 {
				return nil, failure.Terminalf("InvalidChart", "chart.fromResource.ref: component %s:%s has no repositoryContext and is not a component of this installation", r.ComponentName, r.Version)
			}
			rc, err := component.ParseRepositorySpec(r.RepositoryContext)
			if err != nil {
				return nil, failure.NewTerminal("InvalidChart", fmt.Errorf("chart.fromResource.ref: %w", err))
			}
			if c, err = reg.Load(ctx, component.VersionRef{Context: rc, Name: r.ComponentName, Version: r.Version}); err != nil {
				return nil, registryFailure(err)
			}
		}
	}
	return fetchChart(ctx, c, component.Selector{"name": ref.ResourceName})
}

// OCIChart implements helm.Resources for chart.ref: the registry's
// credentials and cache serve OCI charts too.
func (a *ComponentAccess) OCIChart(ctx context.Context, ref string) ([]byte, error) {
	return ociChart(ctx, a.Registry, ref)
}

// ociChart reads an OCI chart through reg.
func ociChart(ctx context.Context, reg *component.Registry, ref string) ([]byte, error) {
	b, _, err := reg.Artifact(ctx, ref)
	if err != nil {
		return nil, registryFailure(fmt.Errorf("chart %s: %w", ref, err))
	}
	return b.Data, nil
}

func fetchChart(ctx context.Context, c *component.Component, sel component.Selector) ([]byte, error) {
	res, err := c.Resource(sel)
	if err != nil {
		return nil, failure.NewTerminal("ChartNotFound", err)
	}
	b, err := c.Fetch(ctx, res)
	if err != nil {
		return nil, registryFailure(err)
	}
	return b.Data, nil
}

// registryFailure classifies a registry error: an unreachable registry may
// come back (transient), an answer such as "not found" or "denied" will not.
func registryFailure(err error) error {
	if ocireg.Unreachable(err) {
		return err
	}
	return failure.NewTerminal("ChartNotFound", err)
}

// OCITags implements helm.OCITagLister for chart.ref: the tags of an OCI
// repository, listed with the registry's credentials.
func (a *ComponentAccess) OCITags(ctx context.Context, repository string) ([]string, error) {
	return a.Registry.Client.Tags(ctx, repository)
}
