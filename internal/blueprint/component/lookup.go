package component

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"sigs.k8s.io/yaml"
)

// ErrNoComponent is returned by look-ups of an installation without a
// component descriptor.
var ErrNoComponent = errors.New("no component descriptor is defined for this installation")

// Selector matches identity attributes (name and extraIdentity keys).
type Selector map[string]string

// matches reports whether every selector attribute equals the identity's.
func (s Selector) matches(identity map[string]string) bool {
	for k, v := range s {
		if identity[k] != v {
			return false
		}
	}
	return true
}

// identityOf reads name and extraIdentity of a generic resource or
// component reference.
func identityOf(elem map[string]any) map[string]string {
	id := map[string]string{}
	if n, ok := elem["name"].(string); ok {
		id["name"] = n
	}
	if extra, ok := elem["extraIdentity"].(map[string]any); ok {
		for k, v := range extra {
			if s, ok := v.(string); ok {
				id[k] = s
			}
		}
	}
	return id
}

// componentList returns `component.<key>` of a generic descriptor.
func componentList(cd map[string]any, key string) []map[string]any {
	comp, _ := cd["component"].(map[string]any)
	list, _ := comp[key].([]any)
	out := make([]map[string]any, 0, len(list))
	for _, e := range list {
		if m, ok := e.(map[string]any); ok {
			out = append(out, m)
		}
	}
	return out
}

// SelectResources returns the resources of cd (or of c's descriptor when cd
// is nil) whose identity matches sel, in descriptor order.
func (c *Component) SelectResources(cd map[string]any, sel Selector) ([]map[string]any, error) {
	own := cd == nil
	if own {
		if c == nil {
			return nil, ErrNoComponent
		}
		cd = c.Generic
	}
	var out []map[string]any
	for _, r := range componentList(cd, "resources") {
		if sel.matches(identityOf(r)) {
			out = append(out, r)
		}
	}
	if len(out) == 0 && own {
		return nil, fmt.Errorf("component %s:%s has no resource matching %v", c.Descriptor.Component.Name, c.Descriptor.Component.Version, map[string]string(sel))
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no resource matches %v", map[string]string(sel))
	}
	return out, nil
}

// SelectComponents resolves the component references of cd (or of c's
// descriptor) matching sel to the referenced descriptors known locally.
func (c *Component) SelectComponents(cd map[string]any, sel Selector) ([]map[string]any, error) {
	if c == nil {
		return nil, ErrNoComponent
	}
	if cd == nil {
		cd = c.Generic
	}
	var out []map[string]any
	for _, ref := range componentList(cd, "componentReferences") {
		if !sel.matches(identityOf(ref)) {
			continue
		}
		name, _ := ref["componentName"].(string)
		version, _ := ref["version"].(string)
		found := c.referenced(cd, identityOf(ref), name, version)
		if found == nil {
			return nil, fmt.Errorf("referenced component %s:%s is not available locally", name, version)
		}
		out = append(out, found.Generic)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no component reference matches %v", map[string]string(sel))
	}
	return out, nil
}

// referencedAt is the component of owner's i-th reference when the tree
// records it in order (read from a registry, overwrites applied); nil
// otherwise.
func (c *Component) referencedAt(i int) *Component {
	if c == nil || !c.referencesInOrder || i >= len(c.Referenced) {
		return nil
	}
	return c.Referenced[i]
}

// referenced resolves a reference (by its identity id, naming
// name:version) of the generic descriptor cd: through the order of the
// tree's component that cd describes (read from a registry, overwrites
// applied), else by name and version.
func (c *Component) referenced(cd map[string]any, id map[string]string, name, version string) *Component {
	comp, _ := cd["component"].(map[string]any)
	cdName, _ := comp["name"].(string)
	cdVersion, _ := comp["version"].(string)
	for _, x := range c.Tree() {
		if !x.referencesInOrder || x.Descriptor.Component.Name != cdName || x.Descriptor.Component.Version != cdVersion {
			continue
		}
		for i, r := range x.Descriptor.Component.ComponentReferences {
			if rid := referenceIdentity(r); Selector(id).matches(rid) && len(id) == len(rid) {
				if found := x.referencedAt(i); found != nil {
					return found
				}
			}
		}
	}
	return c.find(name, version)
}

// find returns the locally known component with this name and version.
func (c *Component) find(name, version string) *Component {
	seen := map[*Component]bool{}
	var walk func(*Component) *Component
	walk = func(x *Component) *Component {
		if x == nil || seen[x] {
			return nil
		}
		seen[x] = true
		if x.Descriptor.Component.Name == name && x.Descriptor.Component.Version == version {
			return x
		}
		for _, r := range x.Referenced {
			if f := walk(r); f != nil {
				return f
			}
		}
		return nil
	}
	return walk(c)
}

// RepositoryContext returns the effective (last) repository context of a
// generic descriptor.
func RepositoryContext(cd map[string]any) (map[string]any, error) {
	if cd == nil {
		return nil, ErrNoComponent
	}
	comp, _ := cd["component"].(map[string]any)
	list, _ := comp["repositoryContexts"].([]any)
	if len(list) == 0 {
		return nil, errors.New("the component descriptor has no repository context")
	}
	ctx, ok := list[len(list)-1].(map[string]any)
	if !ok {
		return nil, errors.New("the last repository context is not an object")
	}
	return ctx, nil
}

// ResourceRef is a resolved relative resource reference.
type ResourceRef struct {
	Owner    *Component
	Resource map[string]any
}

// ResolveReference follows a reference written as
// `cd://componentReferences/<ref>/…/resources/<name>` or as an OCM relative
// artifact reference `{resource: {name: …}, referencePath: [{name: …}]}`.
func (c *Component) ResolveReference(ref string) (ResourceRef, error) {
	if c == nil {
		return ResourceRef{}, ErrNoComponent
	}
	path, resource, err := parseReference(ref)
	if err != nil {
		return ResourceRef{}, err
	}
	owner := c
	for _, step := range path {
		var next *Component
		for i, r := range owner.Descriptor.Component.ComponentReferences {
			if step.matches(referenceIdentity(r)) {
				next = owner.referencedAt(i)
				if next == nil {
					next = c.find(r.ComponentName, r.Version)
				}
				if next == nil {
					return ResourceRef{}, fmt.Errorf("referenced component %s:%s is not available locally", r.ComponentName, r.Version)
				}
				break
			}
		}
		if next == nil {
			return ResourceRef{}, fmt.Errorf("component %s has no component reference %v", owner.Descriptor.Component.Name, map[string]string(step))
		}
		owner = next
	}
	res, err := owner.SelectResources(nil, resource)
	if err != nil {
		return ResourceRef{}, fmt.Errorf("component %s: %w", owner.Descriptor.Component.Name, err)
	}
	return ResourceRef{Owner: owner, Resource: res[0]}, nil
}

func referenceIdentity(r Reference) map[string]string {
	id := map[string]string{"name": r.Name}
	for k, v := range r.ExtraIdentity {
		id[k] = v
	}
	return id
}

// parseReference splits a resource reference into the component reference
// path and the resource selector.
func parseReference(ref string) ([]Selector, Selector, error) {
	if rest, ok := strings.CutPrefix(ref, "cd://"); ok {
		parts := strings.Split(rest, "/")
		if len(parts)%2 != 0 || len(parts) < 2 {
			return nil, nil, fmt.Errorf("reference %q: want cd://[componentReferences/<name>/…]resources/<name>", ref)
		}
		var path []Selector
		for i := 0; i < len(parts)-2; i += 2 {
			if parts[i] != "componentReferences" || parts[i+1] == "" {
				return nil, nil, fmt.Errorf("reference %q: unexpected segment %q", ref, parts[i])
			}
			path = append(path, Selector{"name": parts[i+1]})
		}
		if parts[len(parts)-2] != "resources" || parts[len(parts)-1] == "" {
			return nil, nil, fmt.Errorf("reference %q: must end in resources/<name>", ref)
		}
		return path, Selector{"name": parts[len(parts)-1]}, nil
	}
	var rel struct {
		Resource      map[string]string   `json:"resource"`
		ReferencePath []map[string]string `json:"referencePath"`
	}
	if err := yaml.Unmarshal([]byte(ref), &rel); err != nil || len(rel.Resource) == 0 {
		return nil, nil, fmt.Errorf("reference %q is neither a cd:// path nor a relative artifact reference", ref)
	}
	path := make([]Selector, len(rel.ReferencePath))
	for i, p := range rel.ReferencePath {
		path[i] = p
	}
	return path, rel.Resource, nil
}

// ResourceKey is the base64 encoded global identity of a referenced
// resource, the key deployers use to fetch its content (as in Landscaper).
func (c *Component) ResourceKey(ref string) (string, error) {
	r, err := c.ResolveReference(ref)
	if err != nil {
		return "", err
	}
	global := map[string]any{
		"component": map[string]string{
			"name":    r.Owner.Descriptor.Component.Name,
			"version": r.Owner.Descriptor.Component.Version,
		},
		"resource": identityOf(r.Resource),
	}
	data, err := yaml.Marshal(global)
	if err != nil {
		return "", err
	}
	return base64.StdEncoding.EncodeToString(data), nil
}

// ResourceContent returns the content of a referenced resource: text as
// is, application/octet-stream base64 encoded.
func (c *Component) ResourceContent(ref string) (string, error) {
	r, err := c.ResolveReference(ref)
	if err != nil {
		return "", err
	}
	var res Resource
	raw, err := json.Marshal(r.Resource)
	if err == nil {
		err = json.Unmarshal(raw, &res)
	}
	if err != nil {
		return "", fmt.Errorf("resource %v: %w", identityOf(r.Resource), err)
	}
	ctx, cancel := fetchContext()
	defer cancel()
	b, err := r.Owner.Fetch(ctx, res)
	if err != nil {
		return "", err
	}
	if b.MediaType == "application/octet-stream" || b.MediaType == "" {
		return base64.StdEncoding.EncodeToString(b.Data), nil
	}
	data, err := b.text()
	if err != nil {
		return "", fmt.Errorf("resource %v: %w", identityOf(r.Resource), err)
	}
	return string(data), nil
}
