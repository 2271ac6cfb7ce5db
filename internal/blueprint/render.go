package blueprint

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint/template"
)

// State keys of executions in Rendered.State / Exported.State.
const (
	statePrefixDeploy          = "deploy/"
	statePrefixSubinstallation = "subinstallation/"
	statePrefixExport          = "export/"
)

// Render validates the imports and runs import, deploy and subinstallation
// executions. It needs no cluster: everything comes from in and the
// blueprint filesystem. Ending ctx stops the executions; b's limits bound
// them (WithLimits).
func (b *Blueprint) Render(ctx context.Context, in RenderInput) (*Rendered, error) {
	imports, warnings, err := b.constructImports(in.Imports, in.Component)
	if err != nil {
		return nil, err
	}
	values := b.templateValues(imports, in.Component)
	if err := b.runImportExecutions(ctx, values, imports, in.Component); err != nil {
		return nil, err
	}

	out := &Rendered{Imports: imports, State: map[string]json.RawMessage{}, Warnings: warnings}
	out.Warnings = append(out.Warnings, b.exportSchemaWarnings(in.Component)...)
	for _, ex := range b.DeployExecutions {
		res, err := b.run(ctx, "deploy execution", ex, values, in, statePrefixDeploy, out.State)
		if err != nil {
			return nil, err
		}
		items, warnings, err := decodeDeployItems(ex, res.Output["deployItems"])
		if err != nil {
			return nil, err
		}
		for i := range items {
			items[i].Execution, items[i].Source = ex.Name, ex.File
		}
		out.DeployItems = append(out.DeployItems, items...)
		out.Warnings = append(out.Warnings, warnings...)
	}
	if err := b.validateDeployItems(out.DeployItems, imports); err != nil {
		return nil, terminal(ReasonTemplateFailed, err)
	}

	subs, warnings, err := b.staticSubinstallations()
	if err != nil {
		return nil, err
	}
	out.Warnings = append(out.Warnings, warnings...)
	for _, ex := range b.SubinstallationExecutions {
		res, err := b.run(ctx, "subinstallation execution", ex, values, in, statePrefixSubinstallation, out.State)
		if err != nil {
			return nil, err
		}
		more, warnings, err := decodeSubinstallations(ex, res.Output["subinstallations"])
		if err != nil {
			return nil, err
		}
		subs = append(subs, more...)
		out.Warnings = append(out.Warnings, warnings...)
	}
	names := map[string]bool{}
	var errs []error
	for i, s := range subs {
		errs = append(errs, validateInstallationTemplate(fmt.Sprintf("subinstallation %q (#%d)", s.Name, i), s, names))
	}
	if err := errors.Join(errs...); err != nil {
		return nil, terminal(ReasonTemplateFailed, err)
	}
	out.Subinstallations = subs
	return out, nil
}

// templateValues are the inputs every execution sees.
func (b *Blueprint) templateValues(imports map[string]any, comp *Component) map[string]any {
	values := map[string]any{"imports": imports}
	if comp != nil {
		values["cd"] = comp.Values()
		values["components"] = comp.List()
		if comp.Definition != nil {
			values["componentDescriptorDef"] = comp.Definition
		}
	} else {
		values["cd"] = nil
		values["components"] = nil
	}
	if b.Definition != nil {
		values["blueprint"] = b.Definition
		values["blueprintDef"] = b.Definition
	}
	return values
}

// runImportExecutions merges each execution's `bindings` into imports (so
// later executions see them) and stops at the first one reporting errors.
func (b *Blueprint) runImportExecutions(ctx context.Context, values, imports map[string]any, comp *Component) error {
	for _, ex := range b.ImportExecutions {
		res, err := template.Run(template.Request{
			Kind: "import execution", Execution: ex, Files: b.Files, Component: comp, Values: values, Context: ctx, Limits: b.limits,
		})
		if err != nil {
			return terminal(ReasonTemplateFailed, err)
		}
		if raw, ok := res.Output["bindings"]; ok && raw != nil {
			bindings, ok := raw.(map[string]any)
			if !ok {
				return terminal(ReasonTemplateFailed, fmt.Errorf("%s: bindings must be an object", ex.Describe("import execution")))
			}
			for k, v := range bindings {
				imports[k] = v
			}
		}
		if raw, ok := res.Output["errors"]; ok && raw != nil {
			var msgs []string
			list, _ := raw.([]any)
			for _, m := range list {
				if s := fmt.Sprint(m); s != "" {
					msgs = append(msgs, s)
				}
			}
			if len(msgs) > 0 {
				return NewInputError(InputImport, "", terminal(ReasonImportValidationFailed,
					fmt.Errorf("%s rejected the imports: %s", ex.Describe("import execution"), strings.Join(msgs, "; "))))
			}
		}
	}
	return nil
}

// run executes one stateful execution and records its new state.
func (b *Blueprint) run(ctx context.Context, kind string, ex template.Execution, values map[string]any, in RenderInput,
	prefix string, state map[string]json.RawMessage) (template.Result, error) {
	req := template.Request{
		Kind: kind, Execution: ex, Files: b.Files, Component: in.Component, Values: values,
		State: in.State[prefix+ex.Name], WithState: true, RejectNoValue: true, Context: ctx, Limits: b.limits,
	}
	if prefix == statePrefixDeploy {
		// getServiceAccountKubeconfig: tokens recorded at the last apply,
		// minted during apply (template.TokenBook).
		req.Cluster = template.DeployClusters(ctx)
	}
	res, err := template.Run(req)
	if err != nil {
		return template.Result{}, terminal(ReasonTemplateFailed, err)
	}
	keepState(state, prefix+ex.Name, res.State, in.State)
	return res, nil
}

// keepState records an execution's new state; an execution that outputs no
// state keeps its previous one, as Landscaper only overwrites stored state
// with a non-empty one.
func keepState(out map[string]json.RawMessage, key string, next json.RawMessage, prev map[string]json.RawMessage) {
	switch {
	case next != nil:
		out[key] = next
	case prev[key] != nil:
		out[key] = prev[key]
	}
}

// skipUninstallWarning says why onDelete.skipUninstallIfClusterRemoved has
// no effect: Landscaper decides it with a TargetSync to the Gardener
// project of the target's shoot, which the provider does not have.
const skipUninstallWarning = "has no effect here: Landscaper skips the uninstall only when a TargetSync shows that the " +
	"target's Gardener shoot is gone, and the provider reads no Gardener project. A destroy deletes the item's objects; " +
	"when the cluster is already gone, set the installation's delete_without_uninstall to forget them instead"

// decodeDeployItems reads the `deployItems` list of an execution output.
func decodeDeployItems(ex template.Execution, raw any) ([]api.DeployItemTemplate, []string, error) {
	if raw == nil {
		return nil, nil, nil
	}
	list, ok := raw.([]any)
	if !ok {
		return nil, nil, terminal(ReasonTemplateFailed, fmt.Errorf("%s: deployItems must be a list", ex.Describe("deploy execution")))
	}
	items := make([]api.DeployItemTemplate, 0, len(list))
	var warnings []string
	for i, elem := range list {
		var item api.DeployItemTemplate
		if err := decodeDeployItem(elem, &item); err != nil {
			return nil, nil, terminal(ReasonTemplateFailed, fmt.Errorf("%s: deployItems[%d]: %w", ex.Describe("deploy execution"), i, err))
		}
		for _, w := range unknownFields(elem, reflect.TypeOf(item), fmt.Sprintf("deployItems[%d]", i)) {
			warnings = append(warnings, fmt.Sprintf("%s: %s", ex.Describe("deploy execution"), w))
		}
		if item.OnDelete != nil && item.OnDelete.SkipUninstallIfClusterRemoved {
			warnings = append(warnings, fmt.Sprintf("%s: deployItems[%d].onDelete.skipUninstallIfClusterRemoved: %s",
				ex.Describe("deploy execution"), i, skipUninstallWarning))
		}
		items = append(items, item)
	}
	return items, warnings, nil
}

// decodeDeployItem is remarshal(elem, item) with the item's config
// encoded once: remarshal would encode the whole item and then scan the
// config's bytes again to copy them into item.Config, the largest part of
// decoding 1,000 rendered items. The config's encoding is json.Marshal's,
// which snapshot.HashEncoded relies on.
func decodeDeployItem(elem any, item *api.DeployItemTemplate) error {
	obj, ok := elem.(map[string]any)
	if !ok {
		return remarshal(elem, item)
	}
	// encoding/json matches keys to fields case-insensitively and, of
	// several keys for one field, keeps the last in its (sorted) order.
	configKey := ""
	rest := make(map[string]any, len(obj))
	for k, v := range obj {
		switch {
		case !strings.EqualFold(k, "config"):
			rest[k] = v
		case configKey == "" || k > configKey:
			configKey = k
		}
	}
	if err := remarshal(rest, item); err != nil {
		return err
	}
	if configKey == "" {
		return nil
	}
	cfg := obj[configKey]
	if cfg == nil {
		return json.Unmarshal([]byte("null"), &item.Config)
	}
	data, err := json.Marshal(cfg)
	if err != nil {
		return err
	}
	item.Config = data
	return nil
}

// remarshal converts generic template output into a typed value.
func remarshal(in, out any) error {
	data, err := json.Marshal(in)
	if err != nil {
		return err
	}
	return json.Unmarshal(data, out)
}
