// Package functions holds the provider-defined functions
// (decode_target).
package functions

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/function"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/provider/shared"
)

var _ function.Function = (*decodeTargetFunction)(nil)

// NewDecodeTargetFunction returns provider::landscaper::decode_target: it
// opens a Target object JSON (landscaper_target.x.target or an
// installation's target_exports) so its kubeconfig or config can configure
// other providers, e.g. the kubernetes provider on a cluster an
// installation created.
func NewDecodeTargetFunction() function.Function { return &decodeTargetFunction{} }

type decodeTargetFunction struct{}

// DecodedTargetAttrTypes is the object decode_target returns.
var DecodedTargetAttrTypes = map[string]attr.Type{
	"name":       types.StringType,
	"type":       types.StringType,
	"config":     types.DynamicType,
	"kubeconfig": types.StringType,
}

func (f *decodeTargetFunction) Metadata(_ context.Context, _ function.MetadataRequest, resp *function.MetadataResponse) {
	resp.Name = "decode_target"
}

func (f *decodeTargetFunction) Definition(_ context.Context, _ function.DefinitionRequest, resp *function.DefinitionResponse) {
	resp.Definition = function.Definition{
		Summary: "Decodes a Landscaper Target object",
		MarkdownDescription: "Decodes a Target object JSON — `landscaper_target.<name>.target` or an installation's " +
			"`target_exports[\"<name>\"]` — into `name`, `type`, `config` (the decoded `spec.config`, any shape) and " +
			"`kubeconfig` (the kubeconfig YAML of a `" + api.KubernetesClusterTargetType + "` target, null for other types). " +
			"The result is as sensitive as the argument.",
		Parameters: []function.Parameter{
			function.StringParameter{Name: "target_json",
				MarkdownDescription: "The Target object as JSON."},
		},
		Return: function.ObjectReturn{AttributeTypes: DecodedTargetAttrTypes},
	}
}

func (f *decodeTargetFunction) Run(ctx context.Context, req function.RunRequest, resp *function.RunResponse) {
	var in string
	resp.Error = function.ConcatFuncErrors(resp.Error, req.Arguments.Get(ctx, &in))
	if resp.Error != nil {
		return
	}
	out, err := decodeTarget(in)
	if err != nil {
		// Terraform and OpenTofu name the parameter ("Invalid value for
		// "target_json" parameter: …"); the text says what is wrong.
		resp.Error = shared.ArgumentError(0, err)
		return
	}
	resp.Error = function.ConcatFuncErrors(resp.Error, resp.Result.Set(ctx, out))
}

// decodeTarget builds the result object. Errors never quote the input: it
// holds credentials.
func decodeTarget(in string) (types.Object, error) {
	var t api.Target
	if err := json.Unmarshal([]byte(in), &t); err != nil {
		return types.Object{}, fmt.Errorf("not a Target object JSON (%s)", jsonErrorKind(err))
	}
	if t.Kind != "" && t.Kind != api.TargetKind {
		return types.Object{}, fmt.Errorf("kind is %q, not %q", t.Kind, api.TargetKind)
	}
	if t.Spec.Type == "" {
		return types.Object{}, fmt.Errorf("the Target object has no spec.type")
	}
	config := types.DynamicNull()
	kubeconfig := types.StringNull()
	if len(t.Spec.Config) > 0 && string(t.Spec.Config) != "null" {
		var v any
		if err := json.Unmarshal(t.Spec.Config, &v); err != nil {
			return types.Object{}, fmt.Errorf("spec.config is not valid JSON")
		}
		dv, err := shared.DynamicValue(v)
		if err != nil {
			return types.Object{}, fmt.Errorf("spec.config: %w", err)
		}
		config = dv
		// Landscaper also allows a secretRef instead of a kubeconfig
		// string; that stays in config only.
		if obj, ok := v.(map[string]any); ok && t.Spec.Type == api.KubernetesClusterTargetType {
			if s, ok := obj["kubeconfig"].(string); ok {
				kubeconfig = types.StringValue(s)
			}
		}
	}
	o, d := types.ObjectValue(DecodedTargetAttrTypes, map[string]attr.Value{
		"name": types.StringValue(t.Metadata.Name), "type": types.StringValue(t.Spec.Type),
		"config": config, "kubeconfig": kubeconfig,
	})
	if d.HasError() {
		return types.Object{}, fmt.Errorf("building the result: %v", d)
	}
	return o, nil
}

// jsonErrorKind describes a decoding error without the offending bytes.
func jsonErrorKind(err error) string {
	var syntaxErr *json.SyntaxError
	if errors.As(err, &syntaxErr) {
		return fmt.Sprintf("syntax error at offset %d", syntaxErr.Offset)
	}
	var typeErr *json.UnmarshalTypeError
	if errors.As(err, &typeErr) {
		return fmt.Sprintf("%s must not be a JSON %s", orTop(typeErr.Field), typeErr.Value)
	}
	return "malformed JSON"
}

func orTop(field string) string {
	if field == "" {
		return "the document"
	}
	return field
}
