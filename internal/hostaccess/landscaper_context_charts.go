package hostaccess

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"net/url"
	"sort"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/yaml"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint/component"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer/helm"
)

// The Helm charts of an installation's deploy items are read with what its
// Landscaper Context gives, as Landscaper's Helm deployer reads them with
// the Context its deploy item names: the registry pull secrets for OCI
// charts (chart.ref) and component resources, and
// configurations.helmChartRepoCredentials for chart repositories and
// archive URLs. Each job gets a Helm deployer of its own for that
// (instancesIn); the Context is read when the first chart needs it.

// ChartAccess is helm.Resources for the jobs of one installation.
type ChartAccess struct {
	*ComponentAccess
	Ref ContextRef
}

var (
	_ helm.ChartRepoAuth = ChartAccess{}
	_ helm.OCITagLister  = ChartAccess{}
)

// registry is the registry access with the Context's registry pull
// secrets (the provider's own when the Context gives none).
func (c ChartAccess) registry(ctx context.Context) (*component.Registry, error) {
	s, err := c.ScopeOf(ctx, c.Ref)
	if err != nil || s == nil {
		return c.Registry, err
	}
	return s.Registry, nil
}

// OCIChart reads chart.ref with the Context's registry pull secrets.
func (c ChartAccess) OCIChart(ctx context.Context, ref string) ([]byte, error) {
	reg, err := c.registry(ctx)
	if err != nil {
		return nil, err
	}
	return ociChart(ctx, reg, ref)
}

// OCITags lists an OCI repository's tags with the Context's registry pull
// secrets (helm.OCITagLister).
func (c ChartAccess) OCITags(ctx context.Context, repository string) ([]string, error) {
	reg, err := c.registry(ctx)
	if err != nil {
		return nil, err
	}
	return reg.Client.Tags(ctx, repository)
}

// FromComponent reads chart.fromResource; a component it must read from
// a registry is read with the Context's registry pull secrets.
func (c ChartAccess) FromComponent(ctx context.Context, ref helm.RemoteChartReference) ([]byte, error) {
	reg, err := c.registry(ctx)
	if err != nil {
		return nil, err
	}
	return c.fromComponent(ctx, reg, ref)
}

// ChartRepoAuth implements helm.ChartRepoAuth with the Context's
// configurations.helmChartRepoCredentials: the entry whose URL is the
// longest prefix of u. The auth header (inline, or from a Secret of the
// Context's namespace, key `authHeader` unless given) is learnt as a
// secret before it is used, so no message can show it.
func (c ChartAccess) ChartRepoAuth(ctx context.Context, u string) (helm.RepoAuth, error) {
	s, err := c.ScopeOf(ctx, c.Ref)
	if err != nil || s == nil || len(s.chartRepoCredentials) == 0 {
		return helm.RepoAuth{}, err
	}
	auths, err := parseChartRepoAuths(s.chartRepoCredentials)
	if err != nil {
		return helm.RepoAuth{}, fmt.Errorf("context %s: configurations.helmChartRepoCredentials: %w", c.Ref, err)
	}
	a, ok := matchChartRepoAuth(auths, u)
	if !ok {
		return helm.RepoAuth{}, nil
	}
	where := fmt.Sprintf("context %s: configurations.helmChartRepoCredentials entry %q", c.Ref, a.URL)
	out := helm.RepoAuth{CAData: caData(a.CustomCAData)}
	switch {
	case a.AuthHeader != "" && a.SecretRef != nil:
		return out, fmt.Errorf("%s: set authHeader or secretRef, not both", where)
	case a.AuthHeader != "":
		out.Header = a.AuthHeader
	case a.SecretRef != nil:
		if out.Header, err = c.authHeaderSecret(ctx, s.namespace, *a.SecretRef); err != nil {
			return out, fmt.Errorf("%s: %w", where, err)
		}
	default:
		return out, fmt.Errorf("%s: set authHeader or secretRef", where)
	}
	c.learnAuthHeader(out.Header)
	return out, nil
}

// chartRepoAuth is one entry of Landscaper's HelmChartRepoCredentials
// (helm.deployer.landscaper.gardener.cloud/v1alpha1).
type chartRepoAuth struct {
	URL          string `json:"url"`
	CustomCAData string `json:"customCAData,omitempty"`
	AuthHeader   string `json:"authHeader,omitempty"`
	SecretRef    *struct {
		Name string `json:"name"`
		Key  string `json:"key,omitempty"`
	} `json:"secretRef,omitempty"`
}

func parseChartRepoAuths(raw []byte) ([]chartRepoAuth, error) {
	var creds struct {
		Auths []chartRepoAuth `json:"auths"`
	}
	if err := yaml.UnmarshalStrict(raw, &creds); err != nil {
		// The decoder's message may quote a value; name the shape only.
		return nil, errors.New("is not {auths: [{url, authHeader | secretRef: {name, key}, customCAData}]}")
	}
	return creds.Auths, nil
}

// matchChartRepoAuth picks the entry for u: the longest URL that is a
// prefix of u, as in Landscaper (a URL without scheme means https). Unlike
// Landscaper, the prefix must also have u's scheme and host and end at a
// path segment, so credentials for https://charts.example never go to
// https://charts.example.attacker.io.
func matchChartRepoAuth(auths []chartRepoAuth, u string) (chartRepoAuth, bool) {
	target, err := url.Parse(u)
	if err != nil {
		return chartRepoAuth{}, false
	}
	sorted := append([]chartRepoAuth(nil), auths...)
	for i := range sorted {
		sorted[i].URL = normalizeRepoURL(sorted[i].URL)
	}
	sort.SliceStable(sorted, func(i, j int) bool { return len(sorted[i].URL) > len(sorted[j].URL) })
	for _, a := range sorted {
		p, err := url.Parse(a.URL)
		if err != nil || !strings.EqualFold(p.Scheme, target.Scheme) || !strings.EqualFold(p.Host, target.Host) {
			continue
		}
		prefix := strings.TrimSuffix(p.EscapedPath(), "/")
		if rest, ok := strings.CutPrefix(target.EscapedPath(), prefix); ok && (rest == "" || strings.HasPrefix(rest, "/")) {
			return a, true
		}
	}
	return chartRepoAuth{}, false
}

// normalizeRepoURL is Landscaper's normalization: trimmed, without a
// trailing slash, https when no scheme is given.
func normalizeRepoURL(u string) string {
	u = strings.TrimSuffix(strings.TrimSpace(u), "/")
	if !strings.Contains(u, "://") {
		u = "https://" + u
	}
	return u
}

// caData is customCAData as PEM: Landscaper's API documents it base64
// encoded while its code reads it as PEM; both are accepted.
func caData(s string) []byte {
	if s == "" {
		return nil
	}
	if strings.Contains(s, "-----BEGIN") {
		return []byte(s)
	}
	if b, err := base64.StdEncoding.DecodeString(strings.TrimSpace(s)); err == nil {
		return b
	}
	return []byte(s)
}

// authHeaderSecret reads an auth header from a Secret of the Context's
// namespace. Errors name the Secret and key, never a value.
func (c ChartAccess) authHeaderSecret(ctx context.Context, namespace string, ref struct {
	Name string `json:"name"`
	Key  string `json:"key,omitempty"`
}) (string, error) {
	key := ref.Key
	if key == "" {
		key = "authHeader"
	}
	client, err := c.Host.clientset()
	if err != nil {
		return "", fmt.Errorf("host cluster: %w", err)
	}
	secret, err := client.CoreV1().Secrets(namespace).Get(ctx, ref.Name, metav1.GetOptions{})
	if err != nil {
		return "", fmt.Errorf("secret %s/%s: %w", namespace, ref.Name, err)
	}
	v, ok := secret.Data[key]
	if !ok || len(v) == 0 {
		return "", fmt.Errorf("secret %s/%s has no key %q", namespace, ref.Name, key)
	}
	return strings.TrimSpace(string(v)), nil
}

// learnAuthHeader registers an auth header, and the password of a basic
// one, as secrets to mask.
func (c ChartAccess) learnAuthHeader(h string) {
	if c.Learn == nil {
		return
	}
	c.Learn(h)
	scheme, cred, ok := strings.Cut(h, " ")
	if !ok {
		return
	}
	c.Learn(cred)
	if strings.EqualFold(scheme, "Basic") {
		if b, err := base64.StdEncoding.DecodeString(cred); err == nil {
			if _, pw, ok := strings.Cut(string(b), ":"); ok {
				c.Learn(pw)
			}
		}
	}
}
