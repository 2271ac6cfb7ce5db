package component

import (
	"io/fs"
)

// Component is the component context of one installation: its descriptor,
// the descriptors it references when they are known, and where local blobs
// are read from. A nil *Component means "no component descriptor".
type Component struct {
	Descriptor *Descriptor
	// Generic is the descriptor as templates see it (`cd`).
	Generic map[string]any
	// Referenced are the descriptors of referenced components that are
	// available locally (inline or in the same archive); look-ups through a
	// reference that is not here fail with a clear error.
	Referenced []*Component
	// Archive is the component archive directory (component-descriptor.yaml
	// plus blobs/), nil for an inline descriptor.
	Archive fs.FS
	// Definition is how the installation referenced the descriptor
	// (`componentDescriptorDef`), e.g. {"inline": {...}}.
	Definition map[string]any
}

// Values returns the `cd` input of templates (nil without a component).
func (c *Component) Values() map[string]any {
	if c == nil {
		return nil
	}
	return c.Generic
}

// List returns the `components` input: a v2 component descriptor list
// holding this component and every locally known referenced component.
func (c *Component) List() map[string]any {
	if c == nil {
		return nil
	}
	var all []any
	seen := map[string]bool{}
	var walk func(*Component)
	walk = func(x *Component) {
		key := x.Descriptor.Component.Name + ":" + x.Descriptor.Component.Version
		if seen[key] {
			return
		}
		seen[key] = true
		all = append(all, x.Generic)
		for _, r := range x.Referenced {
			walk(r)
		}
	}
	walk(c)
	return map[string]any{
		"meta":       map[string]any{"schemaVersion": SchemaVersionV2},
		"components": all,
	}
}
