package shared

import (
	"context"
	"errors"

	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/hostaccess"
)

const contextDescription = "Name of a Landscaper `Context` object (`landscaper.gardener.cloud/v1alpha1`) in the " +
	"installation's `namespace` on the host cluster (the provider's `kubernetes` block), as `spec.context` of a " +
	"Landscaper Installation. Its `repositoryContext` is used when `component_descriptor.ref` names none; the " +
	"`kubernetes.io/dockerconfigjson` Secrets its `registryPullSecrets` name (in the same namespace) give the " +
	"credentials of the registries they list (components and `chart.ref` Helm charts), before the provider's " +
	"`registry.credentials`; the `ComponentVersionOverwrites` its `componentVersionOverwrites` names substitute component " +
	"versions; its `configurations.helmChartRepoCredentials` give the credentials of Helm chart repositories " +
	"(`chart.helmChartRepo`, `chart.archive.remote`). Read at plan and apply. Not set: the namespace's `default` " +
	"Context, as in Landscaper, read only when the installation reads a component descriptor or a Helm chart from a " +
	"registry or repository; a namespace without one (no Landscaper there) gives nothing."

// ContextRefOf is the Context of m, an installation in the HCL form.
func ContextRefOf(m InstallationModel) (hostaccess.ContextRef, error) {
	if m.Context.IsUnknown() || m.Namespace.IsUnknown() {
		return hostaccess.ContextRef{}, ErrUnknownValue
	}
	ns := m.Namespace.ValueString()
	if ns == "" {
		ns = "default"
	}
	return hostaccess.ContextRef{Namespace: ns, Name: m.Context.ValueString(), None: !m.Context.IsNull() && m.Context.ValueString() == ""}, nil
}

// InstallationScope reads the Context the installation uses, through a
// (the provider instance's registry and host cluster): its registry and
// repository context for componentSource; nil when it has none. At plan,
// the default Context of an installation that names none matters only
// for a component descriptor, so it is read only then. Errors point at
// the `context` attribute.
func InstallationScope(ctx context.Context, a *hostaccess.ComponentAccess, m InstallationModel) (*hostaccess.ComponentScope, error) {
	ref, err := ContextRefOf(m)
	switch {
	case err != nil && (m.Context.IsUnknown() || !m.ComponentDescriptor.IsNull()):
		return nil, err
	case err != nil, ref.Name == "" && m.ComponentDescriptor.IsNull():
		return nil, nil //nolint:nilerr // a bad context matters here only for a component descriptor; the spec reports it
	case ref.Name != "" && (a == nil || a.Host == nil):
		return nil, AttrErr(path.Root("context"), errors.New("the provider is not configured, so no Context can be read"))
	}
	return a.ScopeOf(ctx, ref)
}
