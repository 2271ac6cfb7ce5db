package ocireg

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	ocispec "github.com/opencontainers/image-spec/specs-go/v1"
	"oras.land/oras-go/v2/registry/remote/auth"
)

// DockerConfigCredentials reads the `auths` of a Docker config.json (the
// `.dockerconfigjson` of a kubernetes.io/dockerconfigjson Secret) into
// credentials by registry host. Errors never quote the content.
func DockerConfigCredentials(data []byte) (map[string]auth.Credential, error) {
	var cfg struct {
		Auths map[string]struct {
			Auth          string `json:"auth"`
			Username      string `json:"username"`
			Password      string `json:"password"`
			IdentityToken string `json:"identitytoken"`
			RegistryToken string `json:"registrytoken"`
		} `json:"auths"`
	}
	if err := json.Unmarshal(data, &cfg); err != nil {
		return nil, errors.New("not a Docker config.json (a JSON object with \"auths\")")
	}
	out := map[string]auth.Credential{}
	for server, a := range cfg.Auths {
		cred := auth.Credential{Username: a.Username, Password: a.Password, RefreshToken: a.IdentityToken, AccessToken: a.RegistryToken}
		if a.Auth != "" {
			decoded, err := base64.StdEncoding.DecodeString(a.Auth)
			user, pass, ok := strings.Cut(string(decoded), ":")
			if err != nil || !ok {
				return nil, fmt.Errorf("the \"auth\" of %s is not base64 of user:password", server)
			}
			cred.Username, cred.Password = user, pass
		}
		for _, host := range dockerHosts(server) {
			out[host] = cred
		}
	}
	return out, nil
}

// dockerHosts are the registry hosts a config.json server key stands for:
// the key may be a URL ("https://index.docker.io/v1/"), and Docker Hub
// answers as registry-1.docker.io.
func dockerHosts(server string) []string {
	host := server
	if i := strings.Index(host, "://"); i >= 0 {
		host = host[i+3:]
	}
	if i := strings.Index(host, "/"); i >= 0 {
		host = host[:i]
	}
	switch host {
	case "index.docker.io", "docker.io", "registry-1.docker.io":
		return []string{"docker.io", "index.docker.io", "registry-1.docker.io"}
	}
	return []string{host}
}

// WithCredentials returns a client reading with creds for their hosts and
// with c's credentials for every other host. It shares c's cache on disk
// but not its answers: a tag it resolves is asked again with these
// credentials.
func (c *Client) WithCredentials(creds map[string]auth.Credential) *Client {
	base := c.credential
	n := &Client{
		cache:       c.cache,
		http:        c.http,
		resolved:    map[string]ocispec.Descriptor{},
		unreachable: map[string]error{},
		credential: func(ctx context.Context, hostport string) (auth.Credential, error) {
			if cred, ok := creds[hostport]; ok {
				return cred, nil
			}
			if base == nil {
				return auth.EmptyCredential, nil
			}
			return base(ctx, hostport)
		},
	}
	n.open = c.open
	if c.remoteOpen {
		n.open = n.remote
	}
	return n
}
