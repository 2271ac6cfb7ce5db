package component

import (
	"encoding/base64"
	"encoding/json"
	"fmt"

	"sigs.k8s.io/yaml"
)

// ParseResourceKey reads a key made by ResourceKey: the component version
// and the identity of one of its resources.
func ParseResourceKey(key string) (name, version string, sel Selector, err error) {
	data, err := base64.StdEncoding.DecodeString(key)
	if err != nil {
		return "", "", nil, fmt.Errorf("resource key is not base64: %w", err)
	}
	var k struct {
		Component struct {
			Name    string `json:"name"`
			Version string `json:"version"`
		} `json:"component"`
		Resource map[string]string `json:"resource"`
	}
	if err := yaml.Unmarshal(data, &k); err != nil || k.Component.Name == "" || len(k.Resource) == 0 {
		return "", "", nil, fmt.Errorf("resource key does not name a component version and a resource")
	}
	return k.Component.Name, k.Component.Version, k.Resource, nil
}

// Resource returns the first of c's resources whose identity matches sel.
func (c *Component) Resource(sel Selector) (Resource, error) {
	found, err := c.SelectResources(nil, sel)
	if err != nil {
		return Resource{}, err
	}
	var res Resource
	raw, err := json.Marshal(found[0])
	if err == nil {
		err = json.Unmarshal(raw, &res)
	}
	return res, err
}

// Tree returns c and every component it references, transitively, once.
func (c *Component) Tree() []*Component {
	var out []*Component
	seen := map[*Component]bool{}
	var walk func(*Component)
	walk = func(x *Component) {
		if x == nil || seen[x] {
			return
		}
		seen[x] = true
		out = append(out, x)
		for _, r := range x.Referenced {
			walk(r)
		}
	}
	walk(c)
	return out
}
