package component

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"path"
	"strings"
)

// Repository context types of an OCI registry (Landscaper's legacy
// spelling and OCM's).
const (
	RepositoryTypeOCIRegistry    = "ociRegistry"
	RepositoryTypeOCMOCIRegistry = "OCIRegistry"
)

// Component name mappings of an OCI registry repository context.
const (
	MappingURLPath      = "urlPath"
	MappingSHA256Digest = "sha256-digest"
)

// descriptorNamespace is the repository path prefix of component
// descriptor artifacts under urlPath mapping.
const descriptorNamespace = "component-descriptors"

// RepositorySpec is a repository context: where component versions are stored: an OCI
// registry, a base path in it, and how component names map to
// repositories.
type RepositorySpec struct {
	Type                 string `json:"type"`
	BaseURL              string `json:"baseUrl"`
	SubPath              string `json:"subPath,omitempty"`
	ComponentNameMapping string `json:"componentNameMapping,omitempty"`
}

// ParseRepositorySpec reads a repository context object.
func ParseRepositorySpec(raw json.RawMessage) (RepositorySpec, error) {
	var rc RepositorySpec
	if err := json.Unmarshal(raw, &rc); err != nil {
		return rc, fmt.Errorf("repository context: %w", err)
	}
	return rc, rc.Validate()
}

// Validate reports what makes the context unusable.
func (rc RepositorySpec) Validate() error {
	switch strings.TrimSuffix(rc.Type, "/v1") {
	case RepositoryTypeOCIRegistry, RepositoryTypeOCMOCIRegistry:
	default:
		return fmt.Errorf("repository context type %q is not supported (want %q)", rc.Type, RepositoryTypeOCIRegistry)
	}
	if rc.BaseURL == "" {
		return errors.New("repository context needs a baseUrl")
	}
	switch rc.ComponentNameMapping {
	case "", MappingURLPath, MappingSHA256Digest:
	default:
		return fmt.Errorf("repository context: componentNameMapping %q is neither %q nor %q", rc.ComponentNameMapping, MappingURLPath, MappingSHA256Digest)
	}
	return nil
}

// base is "host[:port]/path" of the context, without a scheme.
func (rc RepositorySpec) base() (string, error) {
	raw := rc.BaseURL
	if !strings.Contains(raw, "://") {
		raw = "oci://" + raw
	}
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return "", fmt.Errorf("repository context baseUrl %q is not host[:port][/path]", rc.BaseURL)
	}
	return strings.TrimSuffix(path.Join(u.Host, u.Path, rc.SubPath), "/"), nil
}

// Reference is the OCI reference ("host/repo:tag") of a component
// version's descriptor artifact.
func (rc RepositorySpec) Reference(name, version string) (repository, tag string, err error) {
	if err := rc.Validate(); err != nil {
		return "", "", err
	}
	base, err := rc.base()
	if err != nil {
		return "", "", err
	}
	if name == "" || version == "" {
		return "", "", errors.New("a component version needs a component name and a version")
	}
	if rc.ComponentNameMapping == MappingSHA256Digest {
		sum := sha256.Sum256([]byte(name))
		repository = base + "/" + hex.EncodeToString(sum[:])
	} else {
		repository = path.Join(base, descriptorNamespace, name)
	}
	// OCI tags cannot hold '+'; OCM stores semver build metadata as ".build-".
	return repository, strings.ReplaceAll(version, "+", ".build-"), nil
}

// Resolve returns the reference of a repository-relative artifact
// (relativeOciReference access).
func (rc RepositorySpec) Resolve(relative string) (string, error) {
	base, err := rc.base()
	if err != nil {
		return "", err
	}
	return base + "/" + strings.TrimPrefix(relative, "/"), nil
}
