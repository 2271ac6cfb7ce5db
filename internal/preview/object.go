package preview

import (
	"encoding/json"
	"fmt"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
)

// Key is an object's key in the plan's map of objects: "<item ID>: <ref>"
// with the ref as "apps/v1 Deployment ns/name" (deployer.ObjectRef's
// Versioned: what kubectl shows, with the apiVersion, since two versions
// of one kind are two different documents to a reader). Item IDs and
// object names hold no ": ", so a key names one object.
func Key(itemID string, r deployer.ObjectRef) string { return itemID + ": " + r.Versioned() }

// ItemPrefix is what every key of the item's objects starts with.
func ItemPrefix(itemID string) string { return itemID + ": " }

// refOf reads an object's ref; an object without apiVersion, kind or name
// cannot be shown as one of an item's objects.
func refOf(obj map[string]any) (deployer.ObjectRef, error) {
	r := deployer.RefOf(obj).Named()
	if r.APIVersion == "" || r.Kind == "" || r.Name == "" {
		return r, fmt.Errorf("an object without apiVersion, kind or metadata.name (%s)", r.Versioned())
	}
	return r, nil
}

// normalize returns obj as plain JSON values (maps, slices, strings,
// numbers, bools, nil), whatever Go types the deployer built it from;
// objects decoded from JSON or YAML (all of the built-in deployers') are
// taken as they are, anything else goes through encoding/json. The top
// level is a copy, which the Secret masking may change; nothing below is
// changed.
func normalize(obj map[string]any) (map[string]any, error) {
	if plainJSON(obj) {
		out := make(map[string]any, len(obj))
		for k, v := range obj {
			out[k] = v
		}
		return out, nil
	}
	b, err := json.Marshal(obj)
	if err != nil {
		return nil, err
	}
	var out map[string]any
	return out, api.DecodeExact(b, &out, api.AllowTrailing)
}

// plainJSON reports whether v holds only what the encoder takes as it is.
func plainJSON(v any) bool {
	switch x := v.(type) {
	case map[string]any:
		for _, e := range x {
			if !plainJSON(e) {
				return false
			}
		}
		return true
	case []any:
		for _, e := range x {
			if !plainJSON(e) {
				return false
			}
		}
		return true
	case string, bool, nil, json.Number, int, int64, float64:
		return true
	}
	return false
}
