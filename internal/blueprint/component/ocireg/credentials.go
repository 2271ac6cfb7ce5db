package ocireg

import (
	"context"
	"errors"
	"fmt"

	"oras.land/oras-go/v2/registry/remote/auth"
	"oras.land/oras-go/v2/registry/remote/credentials"
)

// HostCredential is the credential of one registry host.
type HostCredential struct {
	// Host is "host" or "host:port" as in image references.
	Host          string
	Username      string
	Password      string
	IdentityToken string
}

// Credentials combines explicit per-host credentials with Docker
// config.json files: an explicit entry wins, then the files in order.
// Credential helpers named in a config.json (credsStore, credHelpers) are
// not run: the provider starts no programs a configuration file names.
func Credentials(hosts []HostCredential, dockerConfigs []string) (auth.CredentialFunc, error) {
	byHost := map[string]auth.Credential{}
	for _, h := range hosts {
		if h.Host == "" {
			return nil, errors.New("a registry credential needs a host")
		}
		if _, dup := byHost[h.Host]; dup {
			return nil, fmt.Errorf("registry host %q has more than one credential", h.Host)
		}
		if (h.Username == "") != (h.Password == "") {
			return nil, fmt.Errorf("registry host %q: username and password go together", h.Host)
		}
		if h.IdentityToken != "" && h.Username != "" {
			return nil, fmt.Errorf("registry host %q: set username/password or identity_token, not both", h.Host)
		}
		byHost[h.Host] = auth.Credential{Username: h.Username, Password: h.Password, RefreshToken: h.IdentityToken}
	}
	var stores []credentials.Store
	for _, p := range dockerConfigs {
		s, err := credentials.NewFileStore(p)
		if err != nil {
			// The error names the file and what is wrong, never its content.
			return nil, fmt.Errorf("docker config %s: %w", p, err)
		}
		stores = append(stores, s)
	}
	return func(ctx context.Context, hostport string) (auth.Credential, error) {
		if c, ok := byHost[hostport]; ok {
			return c, nil
		}
		for _, s := range stores {
			c, err := s.Get(ctx, credentials.ServerAddressFromHostname(hostport))
			if err != nil {
				return auth.EmptyCredential, fmt.Errorf("registry %s: reading docker config: %w", hostport, err)
			}
			if c != auth.EmptyCredential {
				return c, nil
			}
		}
		return auth.EmptyCredential, nil
	}, nil
}
