package ocireg

import (
	"context"
	"errors"
	"fmt"

	"oras.land/oras-go/v2/registry/remote/auth"
	"oras.land/oras-go/v2/registry/remote/credentials"
)

// HostCredential is the credential of one registry host: a username and
// password, an identity token, or the host's entry in a Docker
// config.json file.
type HostCredential struct {
	// Host is "host" or "host:port" as in image references.
	Host          string
	Username      string
	Password      string
	IdentityToken string
	// DockerConfig is the path of a config.json holding the credential.
	DockerConfig string
}

// Credentials returns the credential function of the given hosts; every
// other host is accessed anonymously. Credential helpers named in a
// config.json (credsStore, credHelpers) are not run: the provider starts
// no programs a configuration file names.
func Credentials(hosts []HostCredential) (auth.CredentialFunc, error) {
	byHost := map[string]auth.CredentialFunc{}
	for _, h := range hosts {
		if h.Host == "" {
			return nil, errors.New("a registry credential needs a host")
		}
		if _, dup := byHost[h.Host]; dup {
			return nil, fmt.Errorf("registry host %q has more than one credential", h.Host)
		}
		kinds := 0
		for _, set := range []bool{h.Username != "" || h.Password != "", h.IdentityToken != "", h.DockerConfig != ""} {
			if set {
				kinds++
			}
		}
		switch {
		case kinds != 1:
			return nil, fmt.Errorf("registry host %q: set exactly one of username/password, identity_token, docker_config", h.Host)
		case (h.Username == "") != (h.Password == ""):
			return nil, fmt.Errorf("registry host %q: username and password go together", h.Host)
		case h.DockerConfig != "":
			store, err := credentials.NewFileStore(h.DockerConfig)
			if err != nil {
				// The error names the file and what is wrong, never its content.
				return nil, fmt.Errorf("registry host %q: docker config %s: %w", h.Host, h.DockerConfig, err)
			}
			byHost[h.Host] = credentials.Credential(store)
		default:
			byHost[h.Host] = auth.StaticCredential(h.Host, auth.Credential{Username: h.Username, Password: h.Password, RefreshToken: h.IdentityToken})
		}
	}
	return func(ctx context.Context, hostport string) (auth.Credential, error) {
		if f, ok := byHost[hostport]; ok {
			return f(ctx, hostport)
		}
		return auth.EmptyCredential, nil
	}, nil
}
