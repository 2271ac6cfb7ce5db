package target

import (
	"crypto/sha256"
	"fmt"
	"sort"
	"strings"

	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"
)

// A kubeconfig can make client-go run a program (exec, auth-provider
// plugins), read local files (token, certificate and key files) or send
// every request through a proxy. That is fine for the user's own
// kubeconfig — EKS and GKE clusters need exec — but a kubeconfig that a
// blueprint exported, built from data or passed through a data mapping is
// untrusted input: it must not run anything on the Terraform host. The
// pool therefore checks every kubeconfig it was not told to trust (Trust)
// against an allow-list, unless WithUntrustedCredentials opts out.

// Trust marks a kubeconfig as the user's own: clients for exactly this
// kubeconfig text are built without the allow-list check. A blueprint that
// passes the user's target on unchanged still uses it; any change makes
// the kubeconfig untrusted.
func (p *Pool) Trust(kubeconfig string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.trusted[sha256.Sum256([]byte(kubeconfig))] = true
}

// Trusted says whether the kubeconfig was marked with Trust.
func (p *Pool) Trusted(kubeconfig string) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.trusted[sha256.Sum256([]byte(kubeconfig))]
}

// explanation is where an untrusted kubeconfig came from and how to
// trust it, for the refusal; the zero value names a blueprint.
type explanation struct{ origin, remedy string }

// Explain tells the pool where a kubeconfig it was not told to trust came
// from (origin: "Target ns/x was read from the host cluster") and how the
// user may trust it (remedy), for the error that refuses what it uses.
// Neither may contain the kubeconfig.
func (p *Pool) Explain(kubeconfig, origin, remedy string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.explained[sha256.Sum256([]byte(kubeconfig))] = explanation{origin: origin, remedy: remedy}
}

// WithUntrustedCredentials lets kubeconfigs that did not come from the
// user's configuration use exec, auth providers, files and proxies (the
// provider's allow_exec_in_blueprint_targets).
func WithUntrustedCredentials(allow bool) Option {
	return func(p *Pool) { p.allowUntrusted = allow }
}

// checkUntrusted lists what an untrusted kubeconfig may not use. The
// message names fields and entries, never values.
func checkUntrusted(cfg *clientcmdapi.Config, why explanation) error {
	var refused []string
	add := func(what, name string) { refused = append(refused, fmt.Sprintf("%s (%s)", what, name)) }
	for name, u := range cfg.AuthInfos {
		if u == nil {
			continue
		}
		if u.Exec != nil {
			add("users[].user.exec", name)
		}
		if u.AuthProvider != nil {
			add("users[].user.auth-provider", name)
		}
		if u.TokenFile != "" {
			add("users[].user.tokenFile", name)
		}
		if u.ClientCertificate != "" {
			add("users[].user.client-certificate", name)
		}
		if u.ClientKey != "" {
			add("users[].user.client-key", name)
		}
	}
	for name, c := range cfg.Clusters {
		if c == nil {
			continue
		}
		if c.CertificateAuthority != "" {
			add("clusters[].cluster.certificate-authority", name)
		}
		if c.ProxyURL != "" {
			add("clusters[].cluster.proxy-url", name)
		}
	}
	if len(refused) == 0 {
		return nil
	}
	sort.Strings(refused)
	if why.origin == "" {
		why = explanation{origin: "a blueprint exported or built it",
			remedy: "set allow_exec_in_blueprint_targets = true in the provider block to trust blueprint targets"}
	}
	return fmt.Errorf("the kubeconfig did not come from your configuration (%s) and uses %s, "+
		"which could run programs or read files on this machine; only inline credentials are allowed here (%s)",
		why.origin, strings.Join(refused, ", "), why.remedy)
}
