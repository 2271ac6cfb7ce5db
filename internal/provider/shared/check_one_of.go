package shared

import (
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// CheckOneOf reports unless exactly one of names is set in o (unknown
// values count as set). A null o is fine unless required.
func CheckOneOf(o types.Object, p path.Path, required bool, names []string, diags *diag.Diagnostics) {
	if o.IsUnknown() || (o.IsNull() && !required) {
		return
	}
	attrs := o.Attributes()
	var set []string
	for _, n := range names {
		if v, ok := attrs[n]; ok && !isNull(v) {
			set = append(set, n)
		}
	}
	if len(set) != 1 {
		AddError(diags, nil, "Invalid Attribute Combination", AttrMsg(p, fmt.Sprintf("exactly one of %s must be set, got %d (%s)", strings.Join(names, ", "), len(set), strings.Join(set, ", "))))
	}
}

func isNull(v attr.Value) bool { return v == nil || v.IsNull() }

// CheckSources checks the blueprint and component_descriptor attributes
// that the installation resource and both blueprint data sources share:
// a blueprint from exactly one source, a component descriptor from at
// most one.
func CheckSources(blueprint, componentDescriptor types.Object, diags *diag.Diagnostics) {
	CheckOneOf(blueprint, path.Root("blueprint"), true, []string{"path", "inline", "ref"}, diags)
	CheckOneOf(componentDescriptor, path.Root("component_descriptor"), false, ComponentSourceNames, diags)
}
