package shared

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/fingerprint"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/hostaccess"
)

// A plan that changes nothing used to render every installation's whole
// tree again only to find the deploy items it already had: at 100
// installations of 100 items, the largest part of the provider's own
// work in a no-op plan. Landscaper runs an installation's templates only
// when the installation changed; here the last successful apply records a
// render key in private state — a keyed hash of everything its rendering
// read: the configuration's inputs as the engine got them, the blueprint's
// and component's files and digests, the snapshot the next job starts
// from, and the provider settings the plan-time checks of items depend on
// — and a plan whose inputs hash to the same key reuses that rendering:
// its deploy items are the state's. The key is recorded only when the
// rendering is replayable (engine.Applied.Replayable: no random, time or
// cluster function, nothing that fetches by tag, no warning), so reusing
// it shows exactly what rendering again would. TF_LANDSCAPER_VERIFY_RENDER_REUSE
// (set by `make test`) renders anyway and fails the plan where the two
// differ.

// renderKeyName is the private-state key of the render key.
const renderKeyName = "render_key"

// RenderInputs are what rendering a tree reads besides the snapshot it
// starts from; the zero value (inputs that could not be written down)
// matches no key.
type RenderInputs struct {
	parts []string
	forms fingerprint.Forms
}

// RenderInputsOf writes down the inputs of rendering spec, whose root
// blueprint digest (hostaccess.BlueprintDigest) is digest.
func (d *ProviderData) RenderInputsOf(spec engine.RootSpec, digest string) RenderInputs {
	if d == nil || d.Security == nil || d.Engine == nil || spec.Blueprint == nil || digest == "" {
		return RenderInputs{}
	}
	archive, err := hostaccess.ComponentFilesDigest(spec.Component)
	if err != nil {
		return RenderInputs{}
	}
	var cd, cdDef any
	if spec.Component != nil {
		cd, cdDef = spec.Component.List(), spec.Component.Definition
	}
	parts := []string{"render-key/v1", d.version, spec.Name, digest, archive}
	for _, v := range []any{spec.Imports, spec.ImportDataMappings, spec.ExportDataMappings, spec.Context, cd, cdDef,
		spec.Blueprint.Definition, d.Security.limits, d.Engine.Deployers.Served()} {
		b, err := json.Marshal(v)
		if err != nil {
			return RenderInputs{}
		}
		parts = append(parts, string(b))
	}
	return RenderInputs{parts: parts, forms: spec.WriteOnly}
}

// Key is the render key of these inputs starting from snapshot (the
// engine snapshot's bytes as private state holds them): HMAC under the
// installation's config_hash key, write-only forms masked; "" without a
// key or inputs.
func (in RenderInputs) Key(k ConfigHashKey, snapshot []byte) string {
	if k == nil || in.parts == nil || len(snapshot) == 0 {
		return ""
	}
	return fingerprint.Keyed(k, in.forms, slices.Concat(in.parts, []string{string(snapshot)})...)
}

// StoredRenderKey is the render key private state holds; "" for none.
func StoredRenderKey(ctx context.Context, p PrivateGetter) string {
	raw, d := p.GetKey(ctx, renderKeyName)
	var s string
	if d.HasError() || len(raw) == 0 || json.Unmarshal(raw, &s) != nil {
		return ""
	}
	return s
}

// RecordRenderKey records, after a job, the render key of in and the
// snapshot p now holds (read back as the next plan reads it); with
// replayable false, or without a key, it removes the key, so the next
// plan renders.
func (s *Security) RecordRenderKey(ctx context.Context, p PrivateSetter, k ConfigHashKey, in RenderInputs, replayable bool) diag.Diagnostics {
	var key string
	if g, ok := p.(PrivateGetter); ok && replayable {
		snap, d := GetSnapshot(ctx, g)
		if !d.HasError() {
			key = in.Key(k, snap)
		}
	}
	if key == "" {
		return s.SetPrivate(ctx, p, renderKeyName, nil, false)
	}
	raw, err := json.Marshal(key)
	if err != nil {
		var diags diag.Diagnostics
		AddError(&diags, s, "Cannot Record Render Key", fmt.Errorf("%s: %w", renderKeyName, err))
		return diags
	}
	return s.SetPrivate(ctx, p, renderKeyName, raw, false)
}
