package component

import (
	"reflect"
	"testing"
)

// The same component version written in both schemas.
const (
	exampleV2 = `
meta: {schemaVersion: v2}
component:
  name: example.com/app
  version: 1.0.0
  provider: internal
  labels: [{name: team, value: a}]
  repositoryContexts: [{type: ociRegistry, baseUrl: registry.local/base, componentNameMapping: urlPath}]
  sources: []
  componentReferences:
  - {name: db, componentName: example.com/db, version: 2.0.0, extraIdentity: {flavour: small}}
  resources:
  - name: chart
    version: 1.0.0
    type: helmChart
    relation: external
    access: {type: ociArtifact, imageReference: registry.local/charts/app:1.0.0}
`
	exampleV3 = `
apiVersion: ocm.software/v3alpha1
kind: ComponentVersion
metadata:
  name: example.com/app
  version: 1.0.0
  provider: {name: internal}
  labels: [{name: team, value: a}]
repositoryContexts: [{type: ociRegistry, baseUrl: registry.local/base, componentNameMapping: urlPath}]
spec:
  references:
  - {name: db, componentName: example.com/db, version: 2.0.0, extraIdentity: {flavour: small}}
  resources:
  - name: chart
    version: 1.0.0
    type: helmChart
    relation: external
    access: {type: ociArtifact, imageReference: registry.local/charts/app:1.0.0}
`
)

// TestParseDescriptor_V3Alpha1IsV2 proves a v3alpha1 descriptor is read
// into exactly the model, and the `cd` input, of its v2 equivalent.
func TestParseDescriptor_V3Alpha1IsV2(t *testing.T) {
	d2, g2, err := ParseDescriptor([]byte(exampleV2))
	if err != nil {
		t.Fatal(err)
	}
	d3, g3, err := ParseDescriptor([]byte(exampleV3))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(g2, g3) {
		t.Errorf("cd differs:\nv2: %v\nv3: %v", g2, g3)
	}
	if d3.Component.Name != "example.com/app" || len(d3.Component.ComponentReferences) != 1 ||
		d3.Component.ComponentReferences[0].ExtraIdentity["flavour"] != "small" || len(d3.Component.Resources) != 1 {
		t.Errorf("model: %+v", d3.Component)
	}
	if !reflect.DeepEqual(d2.Component.Resources, d3.Component.Resources) {
		t.Errorf("resources differ")
	}
}

// TestParseDescriptor_V3ProviderWithLabels proves a provider with labels
// keeps them, as OCM's own conversion does (the provider object as JSON).
func TestParseDescriptor_V3ProviderWithLabels(t *testing.T) {
	_, g, err := ParseDescriptor([]byte(`
apiVersion: ocm.software/v3alpha1
metadata: {name: a, version: "1", provider: {name: acme, labels: [{name: x, value: z}]}}
spec: {}
`))
	if err != nil {
		t.Fatal(err)
	}
	comp := g["component"].(map[string]any)
	if comp["provider"] != `{"labels":[{"name":"x","value":"z"}],"name":"acme"}` {
		t.Errorf("provider = %v", comp["provider"])
	}
	if refs, ok := comp["componentReferences"].([]any); !ok || len(refs) != 0 {
		t.Errorf("componentReferences = %#v, want an empty list", comp["componentReferences"])
	}
}

// TestResolveReference_V3AlphaReferences proves cd:// paths follow
// spec.references of a v3alpha1 descriptor given with its reference inline.
func TestResolveReference_V3AlphaReferences(t *testing.T) {
	c, err := FromInline([]byte(exampleV3 + `
---
apiVersion: ocm.software/v3alpha1
kind: ComponentVersion
metadata: {name: example.com/db, version: 2.0.0, provider: {name: internal}}
spec:
  resources:
  - {name: schema, version: 2.0.0, type: jsonschema, relation: local, access: {type: localBlob, localReference: sha256:00}}
`))
	if err != nil {
		t.Fatal(err)
	}
	r, err := c.ResolveReference("cd://componentReferences/db/resources/schema")
	if err != nil {
		t.Fatal(err)
	}
	if r.Owner.Descriptor.Component.Name != "example.com/db" || r.Resource["name"] != "schema" {
		t.Errorf("resolved %s %v", r.Owner.Descriptor.Component.Name, r.Resource)
	}
}
