package blueprint

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"testing/fstest"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint/component"
)

// Blueprint resource types in component descriptors.
const (
	ResourceTypeBlueprint       = "blueprint"
	ResourceTypeBlueprintLegacy = "landscaper.gardener.cloud/blueprint"
)

// Resolve loads the root blueprint and its component descriptor.
func Resolve(src Source, comp ComponentSource) (*Blueprint, *Component, error) {
	c, err := loadComponent(comp)
	if err != nil {
		return nil, nil, NewInputError(InputComponent, "", terminal(ReasonInvalidBlueprint, err))
	}
	set := 0
	for _, ok := range []bool{src.Dir != "", len(src.Inline) > 0, src.ResourceName != ""} {
		if ok {
			set++
		}
	}
	if set != 1 {
		return nil, nil, terminal(ReasonInvalidBlueprint, errors.New("blueprint: exactly one of directory, inline filesystem and resource name must be given"))
	}
	var (
		b   *Blueprint
		def map[string]any
	)
	switch {
	case src.Dir != "":
		if info, err := os.Stat(src.Dir); err != nil || !info.IsDir() {
			return nil, nil, terminal(ReasonInvalidBlueprint, fmt.Errorf("blueprint directory %q is not a readable directory", src.Dir))
		}
		b, err = LoadDir(src.Dir)
		def = map[string]any{"dir": src.Dir}
	case len(src.Inline) > 0:
		var files fs.FS
		if files, err = inlineFS(src.Inline); err == nil {
			b, err = Load(files)
		}
		def = map[string]any{"inline": map[string]any{"filesystem": stringMap(src.Inline)}}
	default:
		b, err = fromResource(c, component.Selector{"name": src.ResourceName})
		def = map[string]any{"ref": map[string]any{"resourceName": src.ResourceName}}
	}
	if err != nil {
		return nil, nil, terminal(ReasonInvalidBlueprint, err)
	}
	b.Definition = def
	return b, c, nil
}

func loadComponent(src ComponentSource) (*Component, error) {
	c, err := readComponent(src)
	c.UseRegistry(src.Registry)
	return c, err
}

func readComponent(src ComponentSource) (*Component, error) {
	switch {
	case src.Loaded != nil && (src.Dir != "" || src.Inline != ""):
		return nil, errors.New("component descriptor: give a reference, a directory or an inline descriptor, not several")
	case src.Loaded != nil:
		return src.Loaded, nil
	case src.Dir != "" && src.Inline != "":
		return nil, errors.New("component descriptor: give a directory or an inline descriptor, not both")
	case src.Dir != "":
		c, err := component.FromArchiveDir(src.Dir)
		if err != nil {
			return nil, err
		}
		c.Definition = map[string]any{"ref": refDefinition(c)}
		return c, nil
	case src.Inline != "":
		c, err := component.FromInline([]byte(src.Inline))
		if err != nil {
			return nil, fmt.Errorf("inline component descriptor: %w", err)
		}
		c.Definition = map[string]any{"inline": c.Generic}
		return c, nil
	}
	return nil, nil
}

func refDefinition(c *Component) map[string]any {
	ref := map[string]any{
		"componentName": c.Descriptor.Component.Name,
		"version":       c.Descriptor.Component.Version,
	}
	if ctxs := c.Descriptor.Component.RepositoryContexts; len(ctxs) > 0 {
		var repo any
		if json.Unmarshal(ctxs[len(ctxs)-1], &repo) == nil {
			ref["repositoryContext"] = repo
		}
	}
	return ref
}

// Subinstallation loads the blueprint a subinstallation template references,
// relative to its parent blueprint and component. The result's Component is
// the subinstallation's component: as in Landscaper, the component that
// holds a referenced blueprint (`cd://componentReferences/<c>/resources/<r>`
// → component <c>), the parent's for an inline one.
func (b *Blueprint) Subinstallation(t api.SubinstallationTemplate, comp *Component) (*Blueprint, error) {
	var (
		sub   *Blueprint
		err   error
		def   = map[string]any{}
		owner = comp
	)
	switch {
	case len(t.Blueprint.Filesystem) > 0 && t.Blueprint.Ref != "":
		return nil, terminal(ReasonInvalidBlueprint, fmt.Errorf("subinstallation %q: blueprint has both ref and filesystem", t.Name))
	case len(t.Blueprint.Filesystem) > 0:
		var files fs.FS
		if files, err = inlineFS(t.Blueprint.Filesystem); err == nil {
			sub, err = Load(files)
		}
		def["inline"] = map[string]any{"filesystem": stringMap(t.Blueprint.Filesystem)}
	case t.Blueprint.Ref != "":
		var resource string
		sub, owner, resource, err = fromReference(comp, t.Blueprint.Ref)
		def["ref"] = map[string]any{"resourceName": resource}
	default:
		return nil, terminal(ReasonInvalidBlueprint, fmt.Errorf("subinstallation %q: blueprint needs ref or filesystem", t.Name))
	}
	if err != nil {
		return nil, terminal(ReasonInvalidBlueprint, fmt.Errorf("subinstallation %q: %w", t.Name, err))
	}
	sub.Definition = def
	sub.limits = b.limits
	sub.Component = owner
	return sub, nil
}

// fromReference loads a blueprint named `cd://…/resources/<name>`, or a
// plain resource name of the installation's own component. It returns the
// component holding the resource (comp itself, or a referenced component
// with its own componentDescriptorDef) and the resource name.
func fromReference(comp *Component, ref string) (*Blueprint, *Component, string, error) {
	if comp == nil {
		return nil, nil, "", fmt.Errorf("blueprint ref %q: %w", ref, component.ErrNoComponent)
	}
	if !strings.HasPrefix(ref, "cd://") {
		b, err := fromResource(comp, component.Selector{"name": ref})
		return b, comp, ref, err
	}
	r, err := comp.ResolveReference(ref)
	if err != nil {
		return nil, nil, "", fmt.Errorf("blueprint ref %q: %w", ref, err)
	}
	var res component.Resource
	if err := remarshal(r.Resource, &res); err != nil {
		return nil, nil, "", fmt.Errorf("blueprint ref %q: %w", ref, err)
	}
	b, err := blueprintFromResource(r.Owner, res)
	owner := r.Owner
	if owner != comp {
		// A copy: the referenced component is shared by everything that
		// refers to it, its definition is this subinstallation's view.
		// One a label nested into an inline descriptor is given inline,
		// as Landscaper gives it.
		c := *owner
		c.Definition = map[string]any{"ref": refDefinition(owner)}
		if owner.NestedInline {
			c.Definition = map[string]any{"inline": owner.Generic}
		}
		owner = &c
	}
	return b, owner, res.Name, err
}

// fromResource loads the blueprint resource matching sel of comp.
func fromResource(comp *Component, sel component.Selector) (*Blueprint, error) {
	if comp == nil {
		return nil, fmt.Errorf("blueprint resource %v: %w", map[string]string(sel), component.ErrNoComponent)
	}
	found, err := comp.SelectResources(nil, sel)
	if err != nil {
		return nil, fmt.Errorf("blueprint resource: %w", err)
	}
	var res component.Resource
	if err := remarshal(found[0], &res); err != nil {
		return nil, fmt.Errorf("blueprint resource %v: %w", map[string]string(sel), err)
	}
	return blueprintFromResource(comp, res)
}

func blueprintFromResource(owner *Component, res component.Resource) (*Blueprint, error) {
	if res.Type != ResourceTypeBlueprint && res.Type != ResourceTypeBlueprintLegacy {
		return nil, fmt.Errorf("resource %q has type %q, not %s", res.Name, res.Type, ResourceTypeBlueprint)
	}
	files, err := owner.BlobFS(res)
	if err != nil {
		return nil, fmt.Errorf("blueprint resource %q: %w", res.Name, err)
	}
	b, err := Load(files)
	if err != nil {
		return nil, fmt.Errorf("blueprint resource %q: %w", res.Name, err)
	}
	return b, nil
}

// inlineFS turns path → content into a read-only filesystem.
func inlineFS(files map[string]string) (fs.FS, error) {
	m := fstest.MapFS{}
	for p, content := range files {
		clean := strings.TrimPrefix(p, "/")
		if !fs.ValidPath(clean) || clean == "." {
			return nil, fmt.Errorf("inline blueprint file %q: not a relative path", p)
		}
		m[clean] = &fstest.MapFile{Data: []byte(content), Mode: 0o444}
	}
	return m, nil
}

func stringMap(m map[string]string) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}
