package template

import (
	"errors"
	"fmt"
	"strings"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/lazyregexp"
)

// The grammar of image references (the distribution reference format).
var (
	ociTag        = lazyregexp.New(`^\w[\w.-]{0,127}$`)
	ociDigest     = lazyregexp.New(`^[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9a-fA-F]{32,}$`)
	ociPathPart   = lazyregexp.New(`^[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*$`)
	ociDomain     = lazyregexp.New(`^(?:(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])(?:\.(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9]))*|\[[a-fA-F0-9:]+\])(?::[0-9]+)?$`)
	ociIdentifier = lazyregexp.New(`^[a-f0-9]{64}$`)
	// digestHexLen are the digest algorithms an image reference may name.
	digestHexLen = map[string]int{"sha256": 64, "sha384": 96, "sha512": 128}
)

const (
	dockerHub       = "docker.io"
	dockerHubLegacy = "index.docker.io"
	maxOCINameLen   = 255
)

// ParseOCIRef splits an image reference into repository and version the
// way Landscaper's parseOCIRef does:
//   - a scheme prefix (`oci://`) is ignored;
//   - a digest wins over a tag (`repo:v1@sha256:…` → the digest);
//   - without tag and digest the version is `latest`, but a reference
//     without any ":" is an error (Landscaper checks that before parsing);
//   - Docker Hub names lose their registry and `library/`
//     (`docker.io/library/nginx`, `library/nginx` and `nginx` → `nginx`);
//   - anything the reference grammar rejects (upper case repositories,
//     bad tags or digests) is an error.
func ParseOCIRef(ref string) ([2]string, error) {
	fail := func(why string) ([2]string, error) {
		return [2]string{}, fmt.Errorf("parseOCIRef %q: %s", ref, why)
	}
	if !strings.Contains(ref, ":") {
		return fail(`invalid reference: no ":" (give a tag or a digest)`)
	}
	s := ref
	if _, rest, ok := strings.Cut(s, "://"); ok {
		s = rest
	}
	name, digest, hasDigest := strings.Cut(s, "@")
	tag := ""
	if i := strings.LastIndex(name, ":"); i > strings.LastIndex(name, "/") {
		name, tag = name[:i], name[i+1:]
		if !ociTag().MatchString(tag) {
			return fail(fmt.Sprintf("invalid tag %q", tag))
		}
	}
	if hasDigest {
		if err := checkDigest(digest); err != nil {
			return fail(err.Error())
		}
	}
	repo, err := ociRepository(name)
	if err != nil {
		return fail(err.Error())
	}
	switch {
	case hasDigest:
		return [2]string{repo, digest}, nil
	case tag != "":
		return [2]string{repo, tag}, nil
	}
	return [2]string{repo, "latest"}, nil
}

// ociRepository validates a repository name and returns it as Landscaper
// reports it: with its registry, except for Docker Hub.
func ociRepository(name string) (string, error) {
	if name == "" {
		return "", errors.New("invalid reference: empty repository")
	}
	if ociIdentifier().MatchString(name) {
		return "", errors.New("invalid reference: a 64 character hex string is an image ID, not a repository")
	}
	domain, path := dockerHub, name
	if i := strings.IndexByte(name, '/'); i >= 0 {
		first := name[:i]
		if strings.ContainsAny(first, ".:") || first == "localhost" || strings.ToLower(first) != first {
			domain, path = first, name[i+1:]
		}
	}
	if domain == dockerHubLegacy {
		domain = dockerHub
	}
	if domain == dockerHub && !strings.Contains(path, "/") {
		path = "library/" + path
	}
	if strings.ToLower(path) != path {
		return "", fmt.Errorf("invalid reference: repository name %q must be lowercase", path)
	}
	if !ociDomain().MatchString(domain) {
		return "", fmt.Errorf("invalid reference: registry %q", domain)
	}
	for _, part := range strings.Split(path, "/") {
		if !ociPathPart().MatchString(part) {
			return "", fmt.Errorf("invalid reference: repository %q", path)
		}
	}
	if len(domain)+1+len(path) > maxOCINameLen {
		return "", fmt.Errorf("invalid reference: repository name longer than %d characters", maxOCINameLen)
	}
	if domain == dockerHub {
		return strings.TrimPrefix(path, "library/"), nil
	}
	return domain + "/" + path, nil
}

func checkDigest(d string) error {
	if !ociDigest().MatchString(d) {
		return fmt.Errorf("invalid digest %q", d)
	}
	alg, hex, _ := strings.Cut(d, ":")
	n, ok := digestHexLen[alg]
	switch {
	case !ok:
		return fmt.Errorf("invalid digest %q: unsupported algorithm %q", d, alg)
	case len(hex) != n || strings.ToLower(hex) != hex:
		return fmt.Errorf("invalid digest %q: %s needs %d lower-case hex characters", d, alg, n)
	}
	return nil
}
