package shared

import (
	"context"
	"strings"
	"sync"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint/component"
)

// component_digests records the manifest digest each component version
// tag resolved to. Refresh resolves the tags again and the plan reads
// those digests (installation/installation_pins.go), so a tag that moved
// shows as a changed digest; when the registry cannot be reached, the
// plan takes the digests recorded here (and the content-addressed cache)
// instead. Apply reads exactly the digests the plan showed, refresh's
// drift check exactly those that were deployed.

const componentDigestsDescription = "Manifest digest of every component version read from an OCI registry (the root and " +
	"every component it references), by `<component name>:<version>`. Refresh asks the registry what each tag points " +
	"at now, so a tag that moved shows here as a changed digest and the next apply installs the new content; " +
	"the plan, and the apply, read exactly those digests, also when the tag moves once more in between. When the registry " +
	"cannot be reached, the plan uses the digests recorded here and the cached content, with a warning."

// PinsOf makes loadComponentRef read component versions at the digests of
// digests (a component_digests value): strictly (apply, refresh), or only
// while the registry is unreachable (plan).
func PinsOf(digests types.Map, strict bool) component.Pins {
	if digests.IsNull() || digests.IsUnknown() {
		return component.Pins{}
	}
	pins := component.Pins{Digests: map[string]string{}, Strict: strict}
	for k, v := range digests.Elements() {
		if s, ok := v.(types.String); ok && !s.IsNull() && !s.IsUnknown() {
			pins.Digests[k] = s.ValueString()
		}
	}
	return pins
}

// RecordedDigests is the state's component_digests; null without a state.
func RecordedDigests(state *InstallationModel) types.Map {
	if state == nil {
		return types.MapNull(types.StringType)
	}
	return state.ComponentDigests
}

// ComponentDigests is the component_digests value of a loaded component:
// empty when none of it came from a registry.
func ComponentDigests(c *blueprint.Component) types.Map {
	m, _ := types.MapValueFrom(context.Background(), types.StringType, c.Digests())
	return m
}

// RegistryNotes collects what reading component versions noticed without
// failing (a registry answered from the cache), so the plan can say so.
type RegistryNotes struct {
	mu    sync.Mutex
	notes []string
}

// add notes msg; a nil n drops it.
func (n *RegistryNotes) add(msg string) {
	if n == nil {
		return
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	n.notes = append(n.notes, msg)
}

// AddTo adds one warning listing every note.
func (n *RegistryNotes) AddTo(diags *diag.Diagnostics) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if len(n.notes) > 0 {
		AddWarning(diags, nil, "Component Registry Unreachable", AttrMsg(path.Root("component_descriptor"), strings.Join(n.notes, "\n")+"\nThe plan uses the digests recorded in the state and the cached content."))
	}
}

// Any reports whether a note was taken (a registry answered from the
// cache).
func (n *RegistryNotes) Any() bool {
	n.mu.Lock()
	defer n.mu.Unlock()
	return len(n.notes) > 0
}
