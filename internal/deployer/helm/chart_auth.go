package helm

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"io"
	"net/http"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/failure"
)

// ChartRepoAuth gives the credentials of chart downloads over HTTP(S)
// (chart.helmChartRepo, chart.archive.remote). In Landscaper they come
// from the installation's Context (configurations.helmChartRepoCredentials);
// the deployer knows nothing of Contexts, so whoever registers it supplies
// them through its Resources, which may implement this interface.
type ChartRepoAuth interface {
	// ChartRepoAuth returns the credentials for url; the zero RepoAuth
	// when none are configured for it. Errors never quote a credential.
	ChartRepoAuth(ctx context.Context, url string) (RepoAuth, error)
}

// RepoAuth is what one chart download is sent with.
type RepoAuth struct {
	// Header is the Authorization header's value ("Basic …",
	// "Bearer …"); empty for none. Never put it into a message.
	Header string
	// CAData are PEM certificates trusted besides the system's, for a
	// server with a certificate of its own CA.
	CAData []byte
}

// repoAuth is the credentials r gives for u.
func repoAuth(ctx context.Context, r Resources, u string) (RepoAuth, error) {
	auths, ok := r.(ChartRepoAuth)
	if !ok || auths == nil {
		return RepoAuth{}, nil
	}
	a, err := auths.ChartRepoAuth(ctx, u)
	if err != nil {
		// The credentials are configured wrongly: a retry cannot help.
		return RepoAuth{}, failure.NewTerminal("InvalidChartRepoCredentials", err)
	}
	return a, nil
}

// get downloads u with the credentials resources give for it, at most
// maxChartSize bytes. A refused authorization is terminal (the
// credentials must change first), as is a missing file; other failures
// may heal.
func get(ctx context.Context, u string, resources Resources) ([]byte, error) {
	auth, err := repoAuth(ctx, resources, u)
	if err != nil {
		return nil, err
	}
	client, err := auth.client()
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, failure.Terminalf("InvalidChart", "chart URL %q: %v", u, err)
	}
	if auth.Header != "" {
		// Go's client drops it on a redirect to another host.
		req.Header.Set("Authorization", auth.Header)
	}
	resp, err := client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("downloading %s: %w", u, err)
	}
	defer resp.Body.Close()
	switch {
	case resp.StatusCode == http.StatusNotFound:
		return nil, failure.Terminalf("ChartNotFound", "downloading %s: %s", u, resp.Status)
	case resp.StatusCode == http.StatusUnauthorized || resp.StatusCode == http.StatusForbidden:
		hint := "the installation's Context gives no credentials for it (configurations.helmChartRepoCredentials)"
		if auth.Header != "" {
			hint = "the credentials the installation's Context gives for it were refused"
		}
		return nil, failure.Terminalf("ChartUnauthorized", "downloading %s: %s: %s", u, resp.Status, hint)
	case resp.StatusCode != http.StatusOK:
		return nil, fmt.Errorf("downloading %s: %s", u, resp.Status)
	}
	b, err := io.ReadAll(io.LimitReader(resp.Body, maxChartSize+1))
	if err != nil {
		return nil, fmt.Errorf("downloading %s: %w", u, err)
	}
	if len(b) > maxChartSize {
		return nil, failure.Terminalf("InvalidChart", "%s is larger than %d bytes", u, maxChartSize)
	}
	return b, nil
}

// client is the HTTP client of a download: the default one, or one that
// also trusts CAData.
func (a RepoAuth) client() (*http.Client, error) {
	if len(a.CAData) == 0 {
		return http.DefaultClient, nil
	}
	pool, err := x509.SystemCertPool()
	if err != nil {
		pool = x509.NewCertPool()
	}
	if !pool.AppendCertsFromPEM(a.CAData) {
		return nil, failure.Terminalf("InvalidChartRepoCredentials", "customCAData holds no PEM certificate")
	}
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.TLSClientConfig = &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}
	return &http.Client{Transport: tr}, nil
}
