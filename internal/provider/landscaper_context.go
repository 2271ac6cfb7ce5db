package provider

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/path"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"oras.land/oras-go/v2/registry/remote/auth"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint/component"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint/component/ocireg"
)

// An installation's `context` names a Landscaper Context object in its
// namespace on the host cluster, as `spec.context` of a Landscaper
// Installation does: its repositoryContext is the default of
// component_descriptor.ref.repository_context, and the docker config
// Secrets its registryPullSecrets name give the credentials of the
// registries they list, for this installation only.

const contextDescription = "Name of a Landscaper `Context` object (`landscaper.gardener.cloud/v1alpha1`) in the " +
	"installation's `namespace` on the host cluster (the provider's `kubernetes` block), as `spec.context` of a " +
	"Landscaper Installation. Its `repositoryContext` is used when `component_descriptor.ref` names none; the " +
	"`kubernetes.io/dockerconfigjson` Secrets its `registryPullSecrets` name (in the same namespace) give the " +
	"credentials of the registries they list, before the provider's `registry.credentials`. Read at plan and apply. " +
	"Unlike Landscaper, no `default` Context is read when this is not set."

// lsContextAPI is where Landscaper's Context objects are served.
const lsContextAPI = "/apis/landscaper.gardener.cloud/v1alpha1"

// componentScope is what a Landscaper Context gives an installation.
type componentScope struct {
	registry          *component.Registry
	repositoryContext *component.RepositorySpec
}

// installationScope reads the Context the installation names, through a
// (the provider instance's registry and host cluster): its registry and
// repository context for componentSource; nil when it names none. Errors
// point at the `context` attribute.
func installationScope(ctx context.Context, a *componentAccess, m installationModel) (*componentScope, error) {
	if m.Context.IsNull() || m.Context.ValueString() == "" {
		return nil, nil
	}
	if m.Context.IsUnknown() || m.Namespace.IsUnknown() {
		return nil, errUnknownValue
	}
	if a == nil || a.host == nil {
		return nil, attrErr(path.Root("context"), errors.New("the provider is not configured, so no Context can be read"))
	}
	ns := m.Namespace.ValueString()
	if ns == "" {
		ns = "default"
	}
	scope, err := a.scope(ctx, ns, m.Context.ValueString())
	if err != nil {
		return nil, attrErr(path.Root("context"), fmt.Errorf("context %s/%s: %w", ns, m.Context.ValueString(), err))
	}
	return scope, nil
}

// scope reads a Context once per provider instance.
func (a *componentAccess) scope(ctx context.Context, namespace, name string) (*componentScope, error) {
	key := namespace + "/" + name
	a.mu.Lock()
	s, ok := a.scopes[key]
	a.mu.Unlock()
	if ok {
		return s, nil
	}
	spec, err := a.host.readLandscaperContext(ctx, namespace, name)
	if err != nil {
		return nil, err
	}
	s = &componentScope{registry: a.registry, repositoryContext: spec.repositoryContext}
	if len(spec.pullSecrets) > 0 {
		creds := map[string]auth.Credential{}
		for _, secret := range spec.pullSecrets {
			got, err := a.host.readPullSecret(ctx, namespace, secret)
			if err != nil {
				return nil, err
			}
			for host, c := range got {
				creds[host] = c
			}
		}
		s.registry = &component.Registry{Client: a.registry.Client.WithCredentials(creds), AllowUnverifiedDigests: a.registry.AllowUnverifiedDigests}
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.scopes == nil {
		a.scopes = map[string]*componentScope{}
	}
	if prev, ok := a.scopes[key]; ok {
		return prev, nil
	}
	a.scopes[key] = s
	return s, nil
}

// lsContextSpec is what this provider reads of a Context.
type lsContextSpec struct {
	repositoryContext *component.RepositorySpec
	pullSecrets       []string
}

// readLandscaperContext reads a Context object of the host cluster.
func (h *hostCluster) readLandscaperContext(ctx context.Context, namespace, name string) (lsContextSpec, error) {
	var out lsContextSpec
	c, err := h.clientset()
	if err != nil {
		return out, fmt.Errorf("host cluster: %w", err)
	}
	raw, err := c.Discovery().RESTClient().Get().
		AbsPath(lsContextAPI, "namespaces", namespace, "contexts", name).DoRaw(ctx)
	if apierrors.IsNotFound(err) {
		return out, errors.New("not found on the host cluster (a Landscaper Context, landscaper.gardener.cloud/v1alpha1)")
	}
	if err != nil {
		return out, fmt.Errorf("reading it from the host cluster: %w", err)
	}
	var obj struct {
		RepositoryContext   json.RawMessage `json:"repositoryContext"`
		RegistryPullSecrets []struct {
			Name string `json:"name"`
		} `json:"registryPullSecrets"`
		OCMConfig *struct {
			Name string `json:"name"`
		} `json:"ocmConfig"`
		ComponentVersionOverwrites string `json:"componentVersionOverwrites"`
	}
	if err := json.Unmarshal(raw, &obj); err != nil {
		return out, fmt.Errorf("not a Context object: %w", err)
	}
	// What this provider cannot honour fails loudly rather than being
	// silently ignored.
	if obj.OCMConfig != nil && obj.OCMConfig.Name != "" {
		return out, errors.New("ocmConfig (OCM resolvers) is not supported; give the repositoryContext instead")
	}
	if obj.ComponentVersionOverwrites != "" {
		return out, errors.New("componentVersionOverwrites is not supported")
	}
	if len(obj.RepositoryContext) > 0 && string(obj.RepositoryContext) != "null" {
		rc, err := component.ParseRepositorySpec(obj.RepositoryContext)
		if err != nil {
			return out, err
		}
		out.repositoryContext = &rc
	}
	for _, s := range obj.RegistryPullSecrets {
		if s.Name != "" {
			out.pullSecrets = append(out.pullSecrets, s.Name)
		}
	}
	return out, nil
}

// readPullSecret reads the registry credentials of a docker config Secret.
// Errors name the Secret and never quote its content.
func (h *hostCluster) readPullSecret(ctx context.Context, namespace, name string) (map[string]auth.Credential, error) {
	c, err := h.clientset()
	if err != nil {
		return nil, fmt.Errorf("host cluster: %w", err)
	}
	s, err := c.CoreV1().Secrets(namespace).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return nil, fmt.Errorf("registry pull secret %s/%s: %w", namespace, name, err)
	}
	data, ok := s.Data[".dockerconfigjson"]
	if !ok {
		keys := make([]string, 0, len(s.Data))
		for k := range s.Data {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		return nil, fmt.Errorf("registry pull secret %s/%s has no .dockerconfigjson (keys: %s); "+
			"only kubernetes.io/dockerconfigjson Secrets are read", namespace, name, strings.Join(keys, ", "))
	}
	creds, err := ocireg.DockerConfigCredentials(data)
	if err != nil {
		return nil, fmt.Errorf("registry pull secret %s/%s: %w", namespace, name, err)
	}
	return creds, nil
}
