package shared

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"sort"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// Write-only data imports (imports.data_wo, Terraform and OpenTofu ≥ 1.11):
// values used to render and deploy that are never stored. Terraform gives
// them to the provider only in the configuration of a plan or an apply
// (the framework nulls them in plan and state), so the model the spec is
// built from takes them from there (withWriteOnly), and what the job
// stores — the engine snapshot in private state, exports in state — has
// them masked (maskWriteOnly, installation_writeonly_mask.go), and every
// stored hash is of the data without them (RootSpec.WriteOnly, package
// fingerprint).

// writeOnlyImportAttributes are the imports attributes of write-only data.
func writeOnlyImportAttributes() map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"data_wo": schema.DynamicAttribute{Optional: true, WriteOnly: true,
			MarkdownDescription: "Write-only data imports (Terraform ≥ 1.11, OpenTofu ≥ 1.11): an object of import name → any " +
				"value, like `data`, e.g. from an ephemeral resource or variable. The values render and deploy the installation " +
				"but are never stored: not in state, not in plan files, and not in the engine snapshot in private state, where " +
				"each string value (and its base64) is replaced by `(write-only)`, also in exports and in the inventory's " +
				"records; no stored hash depends on them. Deploy items whose configuration held one are therefore not checked " +
				"for drift, and are applied by every job (also with `updateOnChangeOnly`). Terraform does not compare write-only " +
				"values with anything stored, so a changed value alone plans no change: change `data_wo_version` to run a job " +
				"with new values. The names must differ from those " +
				"of `data`. Every value inside must be a string of at least 4 characters: the mask works on text, so numbers, " +
				"bools and shorter strings are refused (give those in `data`)."},
		"data_wo_version": schema.Int64Attribute{Optional: true,
			MarkdownDescription: "Any number; changing it runs a job with the current `data_wo` (the Terraform convention " +
				"for write-only values)."},
	}
}

// withImportAttributes adds the write-only attributes to the imports
// attributes attrs.
func withImportAttributes(attrs map[string]schema.Attribute) map[string]schema.Attribute {
	maps.Copy(attrs, writeOnlyImportAttributes())
	return attrs
}

// WithWriteOnly returns m with imports.data_wo taken from the request's
// configuration, where alone Terraform passes it: the model a spec is
// built from. The model stored as plan or state keeps it null.
func WithWriteOnly(ctx context.Context, m InstallationModel, cfg tfsdk.Config) (InstallationModel, diag.Diagnostics) {
	if cfg.Raw.IsNull() || m.Imports.IsNull() || m.Imports.IsUnknown() {
		return m, nil
	}
	var wo types.Dynamic
	diags := cfg.GetAttribute(ctx, path.Root("imports").AtName("data_wo"), &wo)
	if diags.HasError() || wo.IsNull() {
		return m, diags
	}
	attrs := maps.Clone(m.Imports.Attributes())
	attrs["data_wo"] = wo
	obj, d := types.ObjectValue(m.Imports.AttributeTypes(ctx), attrs)
	diags.Append(d...)
	if d.HasError() {
		return m, diags
	}
	m.Imports = obj
	return m, diags
}

// writeOnlyData returns the write-only data imports of im by name; names
// also given in data are an error.
func writeOnlyData(ctx context.Context, im ImportsModel, data map[string]any) (map[string]any, error) {
	p := path.Root("imports").AtName("data_wo")
	v, err := GoValue(ctx, im.DataWO.UnderlyingValue())
	if err != nil || v == nil {
		return nil, attrErrOrNil(p, err)
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return nil, AttrErr(p, errors.New("must be an object of import name → value"))
	}
	var dup []string
	for name := range obj {
		if _, ok := data[name]; ok {
			dup = append(dup, name)
		}
	}
	if len(dup) > 0 {
		sort.Strings(dup)
		return nil, AttrErr(p, fmt.Errorf("imports %q are also given in data", dup))
	}
	if err := Maskable(obj, ""); err != nil {
		return nil, AttrErr(p, err)
	}
	return obj, nil
}

// Maskable reports the first value inside v (at path at) that the mask
// could not keep out of what a job stores: write-only values are hidden
// by replacing their text (Security.MaskSnapshot, SetPrivate), which works
// for strings of at least minWriteOnlyLen characters; a
// number, a bool or a short string would be kept as it is, or mask every
// "true" or "80" of the snapshot.
func Maskable(v any, at string) error {
	return eachLeaf(v, at, func(at string, leaf any) error {
		switch x := leaf.(type) {
		case nil:
			return nil
		case string:
			if len(x) < minWriteOnlyLen {
				return fmt.Errorf("%s: a write-only string must have at least %d characters to be kept out of what is stored; "+
					"give a value that short in imports.data", at, minWriteOnlyLen)
			}
			return nil
		case bool:
			return fmt.Errorf("%s: only strings can be write-only (a bool cannot be kept out of what is stored); "+
				"give it in imports.data", at)
		}
		return fmt.Errorf("%s: only strings can be write-only (a number cannot be kept out of what is stored); "+
			"give it in imports.data", at)
	})
}

// eachLeaf calls f with every value inside v that is no object or list,
// and its path from at (keys joined by ".", list indexes in brackets),
// keys in order; it stops at f's first error.
func eachLeaf(v any, at string, f func(at string, leaf any) error) error {
	switch x := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			p := k
			if at != "" {
				p = at + "." + k
			}
			if err := eachLeaf(x[k], p, f); err != nil {
				return err
			}
		}
		return nil
	case []any:
		for i, e := range x {
			if err := eachLeaf(e, fmt.Sprintf("%s[%d]", at, i), f); err != nil {
				return err
			}
		}
		return nil
	}
	return f(at, v)
}

// attrErrOrNil is AttrErr for a possibly nil error; errUnknownValue is
// returned as it is, since callers test for it.
func attrErrOrNil(p path.Path, err error) error {
	if err == nil || errors.Is(err, ErrUnknownValue) {
		return err
	}
	return AttrErr(p, err)
}

// WriteOnlyValue is the value of m's imports.data_wo (nil without one),
// which TrustImports registers as write-only (redact.Secrets.AddWriteOnly).
func WriteOnlyValue(ctx context.Context, m InstallationModel) any {
	var im ImportsModel
	if ok, err := AsObject(ctx, m.Imports, &im, path.Root("imports")); err != nil || !ok {
		return nil
	}
	v, err := GoValue(ctx, im.DataWO.UnderlyingValue())
	if err != nil {
		return nil
	}
	return v
}

// minWriteOnlyLen is the shortest string masked: shorter ones ("true",
// "v1") would mask unrelated parts of every configuration.
const minWriteOnlyLen = 4
