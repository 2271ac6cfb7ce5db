package component_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"oras.land/oras-go/v2/registry/remote/auth"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint/component"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint/component/componenttest"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint/component/ocireg"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/testsupport/ociregistry"
)

// TestRemoteRegistry_BasicAuth reads a component version with a reference
// and a local blob from a real registry with basic auth; wrong credentials
// are an access error naming the component version, not a "not found".
func TestRemoteRegistry_BasicAuth(t *testing.T) {
	reg := ociregistry.Start(t, ociregistry.Options{User: "ci", Password: "s3cret"})
	ctx := context.Background()
	rc := component.RepositorySpec{Type: "ociRegistry", BaseURL: reg.Host() + "/base"}
	push := componenttest.Remote("ci", "s3cret")
	schema := []byte(`{"type": "string"}`)
	if _, err := componenttest.PushVersion(ctx, push, rc, "example.com/db", "1.0.0", componenttest.Version{
		Legacy: true,
		Descriptor: `
meta: {schemaVersion: v2}
component:
  name: example.com/db
  version: 1.0.0
  provider: internal
  repositoryContexts: []
  sources: []
  componentReferences: []
  resources:
  - {name: schema, version: 1.0.0, type: landscaper.gardener.cloud/jsonschema, relation: local,
     access: {type: localOciBlob, digest: "` + componenttest.Digest(schema) + `"}}
`,
		Blobs: []componenttest.Layer{{MediaType: "application/vnd.gardener.landscaper.jsonschema.layer.v1.json", Data: schema}},
	}); err != nil {
		t.Fatal(err)
	}
	if _, err := componenttest.PushVersion(ctx, push, rc, "example.com/app", "1.0.0", componenttest.Version{Descriptor: `
apiVersion: ocm.software/v3alpha1
kind: ComponentVersion
metadata: {name: example.com/app, version: 1.0.0, provider: {name: test}}
spec:
  references: [{name: db, componentName: example.com/db, version: 1.0.0}]
`}); err != nil {
		t.Fatal(err)
	}
	load := func(password string) (*component.Component, error) {
		client := ocireg.New(ocireg.Options{CacheDir: t.TempDir(),
			Credential: auth.StaticCredential(reg.Host(), auth.Credential{Username: "ci", Password: password})})
		return (&component.Registry{Client: client}).Load(ctx, component.VersionRef{Context: rc, Name: "example.com/app", Version: "1.0.0"})
	}
	c, err := load("s3cret")
	if err != nil {
		t.Fatal(err)
	}
	if got, err := c.ResourceContent("cd://componentReferences/db/resources/schema"); err != nil || got != string(schema) {
		t.Errorf("schema %q, %v", got, err)
	}
	_, err = load("wrong")
	if !errors.Is(err, ocireg.ErrUnauthorized) || !strings.Contains(err.Error(), "component example.com/app:1.0.0") {
		t.Errorf("wrong credentials: %v", err)
	}
	if strings.Contains(err.Error(), "wrong") {
		t.Errorf("the error quotes the password: %v", err)
	}
}

// TestRemoteRegistry_AccessTypes reads a resource of every access type and
// a blueprint in every media type from a real registry with basic auth,
// the component references two levels deep.
func TestRemoteRegistry_AccessTypes(t *testing.T) {
	reg := ociregistry.Start(t, ociregistry.Options{User: "ci", Password: "s3cret"})
	pushLandscape(t, componenttest.Remote("ci", "s3cret"), reg.Host())
	client := ocireg.New(ocireg.Options{CacheDir: t.TempDir(),
		Credential: auth.StaticCredential(reg.Host(), auth.Credential{Username: "ci", Password: "s3cret"})})
	rc := component.RepositorySpec{Type: "ociRegistry", BaseURL: reg.Host() + "/base"}
	c, err := (&component.Registry{Client: client}).Load(context.Background(), component.VersionRef{Context: rc, Name: "example.com/app", Version: "1.0.0"})
	if err != nil {
		t.Fatal(err)
	}
	checkAccessTypes(t, c)
	if got, err := c.ResourceContent("cd://componentReferences/mid/componentReferences/db/resources/schema"); err != nil || !strings.Contains(got, "replicas") {
		t.Errorf("schema two references away: %q, %v", got, err)
	}
}
