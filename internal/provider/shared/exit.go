package shared

import (
	"context"
	"encoding/json"
	"fmt"
	"math/big"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine/snapshot"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/instance"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/redact"
)

// The one exit (docs/guides/security.md, "Where masking happens"):
// everything the provider writes where a user or another tenant can read
// it leaves through a method of this file, each masking with the one
// registry of sensitive values, Security.Secrets (Secret imports,
// sensitive exports, target credentials, credentials read from the host
// cluster, write-only values; URL credentials by their form):
//
//   - attributes of state, plan and list results: SetState, SetPlan,
//     SetResult, SetStateAttribute — every computed attribute that is not
//     sensitive is masked (redact.Secrets.Data); what the configuration
//     set and sensitive attributes stay as Terraform needs them;
//   - private state: SetPrivate — write-only values masked, other secrets
//     kept (destroy and drift need them; the state file is sensitive);
//   - what a job keeps: in private state MaskSnapshot; in the inventory
//     Secret MaskKept, the job's Runner.Mask; the deploy items'
//     configurations the inventory records are sealed when
//     ConfigHoldsSecret says so (Runner.HoldsSecret, set for every job by
//     ProviderData.Instances);
//   - diagnostics: AddError, AddWarning (input_error.go), Scrub;
//   - logs: Logger, Warn.
//
// TestExits_OnlyThroughTheMaskingExit (internal/provider) walks the
// provider's packages and fails on any other write, so a new attribute or
// a new private key gets the mask without anyone remembering it.

// SetState sets model as st's value, masked.
func (s *Security) SetState(ctx context.Context, st *tfsdk.State, model any) diag.Diagnostics {
	diags := st.Set(ctx, model)
	if !diags.HasError() {
		st.Raw = s.maskComputed(maskedAttributes(st.Schema.GetAttributes()), st.Raw)
	}
	return diags
}

// SetStateAttribute sets one attribute of st, masked as SetState masks.
func (s *Security) SetStateAttribute(ctx context.Context, st *tfsdk.State, p path.Path, v any) diag.Diagnostics {
	diags := st.SetAttribute(ctx, p, v)
	if !diags.HasError() {
		st.Raw = s.maskComputed(maskedAttributes(st.Schema.GetAttributes()), st.Raw)
	}
	return diags
}

// SetPlan sets model as pl's value, masked as SetState masks.
func (s *Security) SetPlan(ctx context.Context, pl *tfsdk.Plan, model any) diag.Diagnostics {
	diags := pl.Set(ctx, model)
	if !diags.HasError() {
		pl.Raw = s.maskComputed(maskedAttributes(pl.Schema.GetAttributes()), pl.Raw)
	}
	return diags
}

// SetResult sets model as a list result's resource, masked as SetState
// masks.
func (s *Security) SetResult(ctx context.Context, r *tfsdk.Resource, model any) diag.Diagnostics {
	diags := r.Set(ctx, model)
	if !diags.HasError() {
		r.Raw = s.maskComputed(maskedAttributes(r.Schema.GetAttributes()), r.Raw)
	}
	return diags
}

// attributeFlags are the parts of a schema attribute the mask reads (the
// framework's attribute interface is internal to it).
type attributeFlags interface {
	IsComputed() bool
	IsOptional() bool
	IsRequired() bool
	IsSensitive() bool
}

// maskedAttributes are the top-level attributes the provider alone
// writes and Terraform shows: computed, not set by the configuration,
// not sensitive. The configuration's own values must come back as they
// were sent (Terraform refuses a provider that changes them), and a
// sensitive attribute is shown by no one.
func maskedAttributes[A attributeFlags](attrs map[string]A) map[string]bool {
	out := map[string]bool{}
	for name, a := range attrs {
		if a.IsComputed() && !a.IsOptional() && !a.IsRequired() && !a.IsSensitive() {
			out[name] = true
		}
	}
	return out
}

// maskComputed masks every string inside the attributes named in
// masked. A number whose text is a registered secret, and a boolean at
// the key path of a sensitive boolean (redact.BoolAt), cannot hold the
// mask: their attribute is written null instead (exports never gets
// there, an export holding a secret is sensitive by its value).
func (s *Security) maskComputed(masked map[string]bool, raw tftypes.Value) tftypes.Value {
	if s == nil || len(masked) == 0 || raw.IsNull() || !raw.IsKnown() {
		return raw
	}
	secretNumbers := map[string]bool{} // attributes holding a secret number or boolean
	bools := s.Secrets.BoolPaths()
	out, err := tftypes.Transform(raw, func(p *tftypes.AttributePath, v tftypes.Value) (tftypes.Value, error) {
		steps := p.Steps()
		if len(steps) == 0 || !v.IsKnown() || v.IsNull() {
			return v, nil
		}
		name, ok := steps[0].(tftypes.AttributeName)
		if !ok || !masked[string(name)] {
			return v, nil
		}
		switch {
		case v.Type().Is(tftypes.String):
			var str string
			if v.As(&str) == nil {
				if m := s.Secrets.Data(str); m != str {
					return tftypes.NewValue(tftypes.String, m), nil
				}
			}
		case v.Type().Is(tftypes.Number):
			var n big.Float
			if v.As(&n) == nil {
				if text := n.Text('f', -1); s.Secrets.Data(text) != text {
					secretNumbers[string(name)] = true
				}
			}
		case v.Type().Is(tftypes.Bool):
			if redact.BoolAt(bools, keysOf(steps)) {
				secretNumbers[string(name)] = true
			}
		}
		return v, nil
	})
	if err != nil {
		return raw // Transform fails only on values it did not get from here
	}
	if len(secretNumbers) == 0 {
		return out
	}
	var values map[string]tftypes.Value
	objType, ok := out.Type().(tftypes.Object)
	if !ok || out.As(&values) != nil {
		return out
	}
	for name := range secretNumbers {
		values[name] = tftypes.NewValue(objType.AttributeTypes[name], nil)
	}
	return tftypes.NewValue(objType, values)
}

// keysOf are the attribute names and map or object keys of a path, list
// and set positions left out.
func keysOf(steps []tftypes.AttributePathStep) []string {
	keys := make([]string, 0, len(steps))
	for _, st := range steps {
		switch k := st.(type) {
		case tftypes.AttributeName:
			keys = append(keys, string(k))
		case tftypes.ElementKeyString:
			keys = append(keys, string(k))
		}
	}
	return keys
}

// SetPrivate records raw (JSON) at key in p, with every write-only value
// masked; packed gzips it first (PackSnapshot). The other secrets stay:
// destroy, refresh and the drift check read them back.
func (s *Security) SetPrivate(ctx context.Context, p PrivateSetter, key string, raw []byte, packed bool) diag.Diagnostics {
	if s != nil {
		raw = redact.MaskJSON(raw, s.Secrets.WriteOnly(), snapshot.WriteOnlyMask)
	}
	if packed && len(raw) > 0 {
		b, err := PackSnapshot(raw)
		if err != nil {
			var diags diag.Diagnostics
			AddError(&diags, s, "Cannot Record Private State", fmt.Errorf("%s: %w", key, err))
			return diags
		}
		raw = b
	}
	return p.SetKey(ctx, key, raw)
}

// MaskSnapshot masks what a job keeps (private state, the inventory's
// kept snapshot; instance.Runner.Mask): write-only values everywhere, and
// every registered secret in the last errors, which are texts a reader of
// the inventory or of deploy_item_errors sees.
func (s *Security) MaskSnapshot(snap *engine.Snapshot) {
	if s == nil || snap.Empty() {
		return
	}
	instance.MaskWriteOnly(snap, s.Secrets.WriteOnly())
	instance.ScrubErrors(snap, s.Scrub)
}

// MaskKept masks what the inventory keeps of a job for an import
// (instance.Runner.Mask): as MaskSnapshot, and every registered secret in
// the installations' exports and execution state and the deploy items'
// exports and (write-only masked, so kept) configurations too — the inventory
// Secret is read by whoever may read Secrets in its namespace, and an
// import marks what it fills untrusted until the next apply re-derives it.
func (s *Security) MaskKept(snap *engine.Snapshot) {
	if s == nil || snap.Empty() {
		return
	}
	s.MaskSnapshot(snap)
	instance.MaskOutcomes(snap, s.Secrets.Values(), redact.Mask)
}

// ConfigHoldsSecret reports whether a deploy item's configuration holds a
// registered secret (a Secret import's value, a minted service-account
// token, a target's credentials, in any form the registry knows) or a URL
// with credentials: the inventory records such a configuration sealed
// (instance.Runner.HoldsSecret, inventory/seal.go), since every reader of
// Secrets in a target cluster's namespace reads the inventory. A boolean
// carries one bit and is not looked for.
func (s *Security) ConfigHoldsSecret(raw json.RawMessage) bool {
	if s == nil {
		return redact.HasURLPassword(string(raw))
	}
	return s.Secrets.OccursIn(raw)
}
