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
// values count as set). A null o is fine unless required. Data sources
// share it for the same attributes.
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
		diags.AddAttributeError(p, "Invalid Attribute Combination",
			fmt.Sprintf("exactly one of %s must be set, got %d (%s)", strings.Join(names, ", "), len(set), strings.Join(set, ", ")))
	}
}

func isNull(v attr.Value) bool { return v == nil || v.IsNull() }
