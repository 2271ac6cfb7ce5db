package hostaccess

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"oras.land/oras-go/v2/registry/remote/auth"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint/component"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint/component/ocireg"
)

// An installation's `context` names a Landscaper Context object in its
// namespace on the host cluster, as `spec.context` of a Landscaper
// Installation does: its repositoryContext is the default of
// component_descriptor.ref.repository_context, the docker config Secrets
// its registryPullSecrets name give the credentials of the registries
// they list, and its configurations.helmChartRepoCredentials those of
// Helm chart repositories, for this installation only. Unset, it is
// `default`, as Landscaper defaults it; a namespace without a `default`
// Context (Landscaper's central controller creates one in every
// namespace, a cluster without Landscaper has none) is an empty Context.

// defaultContext is the Context of an installation that names none.
const defaultContext = "default"

// lsContextAPI is where Landscaper's Context objects are served.
const lsContextAPI = "/apis/landscaper.gardener.cloud/v1alpha1"

// errContextNotFound says a Context does not exist (or its kind is not
// served: no Landscaper on the host cluster).
var errContextNotFound = errors.New("not found on the host cluster (a Landscaper Context, landscaper.gardener.cloud/v1alpha1)")

// ComponentScope is what a Landscaper Context gives an installation.
type ComponentScope struct {
	Registry          *component.Registry
	RepositoryContext *component.RepositorySpec
	// namespace is the Context's; its Secrets are read from there.
	namespace string
	// chartRepoCredentials is configurations.helmChartRepoCredentials as
	// written, decoded when a chart is downloaded (as Landscaper does).
	chartRepoCredentials json.RawMessage
}

// ContextRef is the Context an installation uses: the one it names, or
// (name empty) its namespace's default Context if there is one, or none.
type ContextRef struct {
	Namespace string
	Name      string
	// None: `context = ""`, or a manifest's Context given in
	// manifest_objects (which gave the repository context already).
	None bool
}

// String names the Context in messages.
func (r ContextRef) String() string {
	if r.Name == "" {
		return r.Namespace + "/" + defaultContext + " (the default Context: context is not set)"
	}
	return r.Namespace + "/" + r.Name
}

// ScopeOf reads the Context ref names, once per provider instance; an
// absent default Context, or a host cluster that is not configured, is an
// empty one. Errors point at the `context` attribute.
func (a *ComponentAccess) ScopeOf(ctx context.Context, ref ContextRef) (*ComponentScope, error) {
	if ref.None {
		return nil, nil
	}
	if ref.Name != "" {
		s, err := a.scope(ctx, ref.Namespace, ref.Name)
		return s, contextAttrErr(contextError(ref, err))
	}
	if a == nil || a.Host == nil || !a.Host.Settings.Configured {
		return nil, nil
	}
	s, err := a.scope(ctx, ref.Namespace, defaultContext)
	if errors.Is(err, errContextNotFound) {
		return nil, nil
	}
	return s, contextAttrErr(contextError(ref, err))
}

// ContextError is a problem with the installation's Landscaper Context;
// the provider shows it on the `context` attribute (errorPath).
type ContextError struct{ Err error }

func (e *ContextError) Error() string { return e.Err.Error() }
func (e *ContextError) Unwrap() error { return e.Err }

// contextAttrErr marks err as a problem of the Context; nil stays nil.
func contextAttrErr(err error) error {
	if err == nil {
		return nil
	}
	return &ContextError{Err: err}
}

func contextError(ref ContextRef, err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("context %s: %w", ref, err)
}

// scope reads a Context once per provider instance. Absent, it is
// remembered as such (errContextNotFound).
func (a *ComponentAccess) scope(ctx context.Context, namespace, name string) (*ComponentScope, error) {
	key := namespace + "/" + name
	a.mu.Lock()
	s, ok := a.scopes[key]
	a.mu.Unlock()
	if ok {
		if s == nil {
			return nil, errContextNotFound
		}
		return s, nil
	}
	spec, err := a.Host.readLandscaperContext(ctx, namespace, name)
	if err != nil && !errors.Is(err, errContextNotFound) {
		return nil, err
	}
	if err == nil {
		s = &ComponentScope{Registry: a.Registry, RepositoryContext: spec.repositoryContext, namespace: namespace,
			chartRepoCredentials: spec.chartRepoCredentials}
		if s.Registry, err = a.withPullSecrets(ctx, namespace, spec.pullSecrets); err != nil {
			return nil, err
		}
		if spec.overwrites != "" {
			ovs, err := a.Host.readOverwrites(ctx, namespace, spec.overwrites)
			if err != nil {
				return nil, err
			}
			s.Registry = &component.Registry{Client: s.Registry.Client, AllowUnverifiedDigests: s.Registry.AllowUnverifiedDigests, Overwrites: ovs}
		}
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.scopes == nil {
		a.scopes = map[string]*ComponentScope{}
	}
	if prev, ok := a.scopes[key]; ok {
		s = prev
	} else {
		a.scopes[key] = s
	}
	if s == nil {
		return nil, errContextNotFound
	}
	return s, nil
}

// withPullSecrets is the provider's registry with the credentials of the
// registry pull secrets (in namespace) added.
func (a *ComponentAccess) withPullSecrets(ctx context.Context, namespace string, secrets []string) (*component.Registry, error) {
	if len(secrets) == 0 {
		return a.Registry, nil
	}
	creds := map[string]auth.Credential{}
	for _, secret := range secrets {
		got, err := a.Host.readPullSecret(ctx, namespace, secret)
		if err != nil {
			return nil, err
		}
		for host, c := range got {
			creds[host] = c
		}
	}
	return &component.Registry{Client: a.Registry.Client.WithCredentials(creds), AllowUnverifiedDigests: a.Registry.AllowUnverifiedDigests}, nil
}

// lsContextSpec is what this provider reads of a Context.
type lsContextSpec struct {
	repositoryContext    *component.RepositorySpec
	pullSecrets          []string
	chartRepoCredentials json.RawMessage
	// overwrites names a ComponentVersionOverwrites object.
	overwrites string
}

// readLandscaperContext reads a Context object of the host cluster.
func (h *HostCluster) readLandscaperContext(ctx context.Context, namespace, name string) (lsContextSpec, error) {
	var out lsContextSpec
	c, err := h.clientset()
	if err != nil {
		return out, fmt.Errorf("host cluster: %w", err)
	}
	raw, err := c.Discovery().RESTClient().Get().
		AbsPath(lsContextAPI, "namespaces", namespace, "contexts", name).DoRaw(ctx)
	if apierrors.IsNotFound(err) {
		return out, errContextNotFound
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
		Configurations             struct {
			HelmChartRepoCredentials json.RawMessage `json:"helmChartRepoCredentials"`
		} `json:"configurations"`
	}
	if err := json.Unmarshal(raw, &obj); err != nil {
		return out, fmt.Errorf("not a Context object: %w", err)
	}
	// What this provider cannot honour fails loudly rather than being
	// silently ignored.
	if obj.OCMConfig != nil && obj.OCMConfig.Name != "" {
		return out, errors.New("ocmConfig (OCM resolvers) is not supported; give the repositoryContext instead")
	}
	out.overwrites = obj.ComponentVersionOverwrites
	if len(obj.RepositoryContext) > 0 && string(obj.RepositoryContext) != "null" {
		rc, err := component.ParseRepositorySpec(obj.RepositoryContext)
		if err != nil {
			return out, err
		}
		out.repositoryContext = &rc
	}
	out.chartRepoCredentials = obj.Configurations.HelmChartRepoCredentials
	for _, s := range obj.RegistryPullSecrets {
		if s.Name != "" {
			out.pullSecrets = append(out.pullSecrets, s.Name)
		}
	}
	return out, nil
}

// readPullSecret reads the registry credentials of a docker config Secret.
// Errors name the Secret and never quote its content.
func (h *HostCluster) readPullSecret(ctx context.Context, namespace, name string) (map[string]auth.Credential, error) {
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

// readOverwrites reads a ComponentVersionOverwrites object of the host
// cluster, which a Context names.
func (h *HostCluster) readOverwrites(ctx context.Context, namespace, name string) (component.Overwrites, error) {
	c, err := h.clientset()
	if err != nil {
		return nil, fmt.Errorf("host cluster: %w", err)
	}
	raw, err := c.Discovery().RESTClient().Get().
		AbsPath(lsContextAPI, "namespaces", namespace, "componentversionoverwrites", name).DoRaw(ctx)
	if apierrors.IsNotFound(err) {
		return nil, fmt.Errorf("componentVersionOverwrites: ComponentVersionOverwrites %s/%s not found on the host cluster", namespace, name)
	}
	if err != nil {
		return nil, fmt.Errorf("componentVersionOverwrites: reading ComponentVersionOverwrites %s/%s: %w", namespace, name, err)
	}
	ovs, err := component.ParseOverwrites(raw)
	if err != nil {
		return nil, fmt.Errorf("componentVersionOverwrites: ComponentVersionOverwrites %s/%s: %w", namespace, name, err)
	}
	return ovs, nil
}
