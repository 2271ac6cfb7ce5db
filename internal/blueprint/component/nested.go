package component

import (
	"fmt"
)

// InlineDescriptorLabel is the label of a component reference that holds
// the referenced component's descriptor itself (Landscaper's nested
// inline component descriptors): with it, an inline descriptor brings
// the components it references, to any depth, without a registry.
const InlineDescriptorLabel = "landscaper.gardener.cloud/component-descriptor"

// maxNestedDescriptors bounds how deep labels nest descriptors in one
// another. Each level is decoded again from its parent's label, so the
// bound keeps a hostile descriptor from costing quadratic time.
const maxNestedDescriptors = 32

// expandNested adds the descriptors that c's component references hold
// in their InlineDescriptorLabel to c.Referenced, and theirs to them.
func (c *Component) expandNested(depth int) error {
	for _, ref := range c.Descriptor.Component.ComponentReferences {
		for _, l := range ref.Labels {
			if l.Name != InlineDescriptorLabel {
				continue
			}
			if depth >= maxNestedDescriptors {
				return fmt.Errorf("component reference %q: descriptors nest deeper than %d levels in %s labels", ref.Name, maxNestedDescriptors, InlineDescriptorLabel)
			}
			d, generic, err := ParseDescriptor(l.Value)
			if err != nil {
				return fmt.Errorf("component reference %q: label %s: %w", ref.Name, InlineDescriptorLabel, err)
			}
			if d.Component.Name != ref.ComponentName || d.Component.Version != ref.Version {
				return fmt.Errorf("component reference %q names %s:%s, but its label %s holds %s:%s",
					ref.Name, ref.ComponentName, ref.Version, InlineDescriptorLabel, d.Component.Name, d.Component.Version)
			}
			nested := &Component{Descriptor: d, Generic: generic, NestedInline: true}
			if err := nested.expandNested(depth + 1); err != nil {
				return fmt.Errorf("component %s:%s: %w", d.Component.Name, d.Component.Version, err)
			}
			c.Referenced = append(c.Referenced, nested)
		}
	}
	return nil
}
