package shared

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/instance"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/preview"
)

// TextsValue is texts as deploy_item_objects: compact JSON of item path →
// the item's objects by header, each a list of lines (preview.ItemShape),
// keys sorted, "<" and ">" as they are.
func TextsValue(texts map[string]string, diags *diag.Diagnostics) types.String {
	shaped := make(map[string]any, len(texts))
	for p, t := range texts {
		shaped[p] = preview.ItemShape(t)
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(shaped); err != nil {
		AddError(diags, nil, "Cannot Record deploy_item_objects", err)
		return types.StringNull()
	}
	return types.StringValue(strings.TrimSuffix(b.String(), "\n"))
}

// ParseTexts reads deploy_item_objects back into item path → text, in
// either shape (TextsValue's, or the one string per item of schema
// version 0); false when v is null, unknown or neither.
func ParseTexts(v types.String) (map[string]string, bool) {
	if v.IsNull() || v.IsUnknown() {
		return nil, false
	}
	var items map[string]any
	if json.Unmarshal([]byte(v.ValueString()), &items) != nil {
		return nil, false
	}
	out := make(map[string]string, len(items))
	for p, raw := range items {
		t, err := preview.ItemText(raw)
		if err != nil {
			return nil, false
		}
		out[p] = t
	}
	return out, true
}

// PreviewOptions are the options of one preview: the marks continue
// prior under key (nil: none yet) and fingerprint values without the
// registered write-only forms, the provider's secrets are masked and
// capabilities are the recorded ones.
func (d *ProviderData) PreviewOptions(mode string, key ConfigHashKey, prior map[string]preview.Mark, caps map[string]*deployer.Capabilities) instance.PreviewOptions {
	var sensitive preview.Sensitive
	sensitive.Add(d.Security.Secrets.Values()...)
	sensitive.AddBoolPaths(d.Security.Secrets.BoolPaths()...)
	opts := instance.PreviewOptions{Marks: preview.NewMarks(key, prior, d.Security.Secrets.WriteOnly()), Sensitive: &sensitive, Capabilities: caps}
	if mode == PlanDiffServer {
		opts.Server = &instance.ServerOptions{}
	}
	return opts
}

// CollectPlanTexts is CollectTexts for a plan: an item beyond a limit
// (deployer.ErrBeyondLimit) fails it, since applying the item would fail,
// possibly after creating some of its objects. Elsewhere (a refresh, the
// text after an apply) such an item is only not previewed.
func (d *ProviderData) CollectPlanTexts(shown []instance.ItemText, out map[string]string, diags *diag.Diagnostics) {
	rest := shown[:0:0]
	for _, it := range shown {
		if errors.Is(it.Err, deployer.ErrBeyondLimit) {
			AddError(diags, d.Security, "Deploy Item Beyond A Limit", AttrErr(path.Root("deploy_item_objects"), it.Err))
			continue
		}
		rest = append(rest, it)
	}
	d.CollectTexts(rest, out, diags)
}

// CollectTexts puts the items' texts into out: an item that could not be
// previewed gets a note and a warning, items whose cluster could not be
// asked one warning together.
func (d *ProviderData) CollectTexts(shown []instance.ItemText, out map[string]string, diags *diag.Diagnostics) {
	var offline []string
	var reason error
	for _, it := range shown {
		var moved *deployer.PinMovedError
		if errors.As(it.Err, &moved) {
			// Showing the new content would make the apply's own plan
			// differ from the plan being applied.
			AddError(diags, d.Security, "Deploy Item Source Moved", AttrErr(path.Root("deploy_item_objects"), it.Err))
			continue
		}
		if it.Err != nil {
			msg := d.Security.Scrub(it.Err.Error())
			out[it.ID] = NoPreview + strings.ReplaceAll(msg, "\n", "\n# ") + "\n"
			if errors.Is(it.Err, deployer.ErrFetchedAtApply) {
				continue // by design, for every new remote chart: the text says so
			}
			AddWarning(diags, d.Security, "Deploy Item Not Previewed", AttrErr(path.Root("deploy_item_objects"),
				fmt.Errorf("deploy item %s: %w", it.ID, it.Err)))
			continue
		}
		if it.Offline != nil {
			offline = append(offline, it.ID)
			if reason == nil {
				reason = it.Offline
			}
		}
		out[it.ID] = it.Text
	}
	if len(offline) > 0 {
		sort.Strings(offline)
		AddWarning(diags, d.Security, "Plan Diff Without The Cluster", AttrErr(path.Root("plan_diff"), NotedError{
			fmt.Errorf("plan_diff = \"server\": the cluster of deploy items %s could not be asked: %w", strings.Join(offline, ", "), reason),
			"Their deploy_item_objects show what they deploy as rendered without the cluster."}))
	}
}

// NoPreview heads the text of an item that could not be previewed; such
// an item is previewed again at the next plan that changes anything.
const NoPreview = "# no preview: "
