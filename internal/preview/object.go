package preview

import (
	"bytes"
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

// DeployItemAPIVersion and DeployItemKind describe an item whose deployer
// cannot preview its objects (ConfigObject).
const (
	DeployItemAPIVersion = "landscaper.gardener.cloud/v1alpha1"
	DeployItemKind       = "DeployItem"
)

// ConfigObject describes a deploy item by its configuration, for a
// deployer that is no deployer.Previewer: the plan then shows which
// fields of the item's spec change.
func ConfigObject(name, itemType string, config json.RawMessage) (deployer.PreviewObject, error) {
	var cfg any
	if len(bytes.TrimSpace(config)) > 0 {
		if err := unmarshalExact(config, &cfg); err != nil {
			return deployer.PreviewObject{}, fmt.Errorf("deploy item %q: config: %w", name, err)
		}
	}
	return deployer.PreviewObject{Object: map[string]any{
		"apiVersion": DeployItemAPIVersion, "kind": DeployItemKind,
		"metadata": map[string]any{"name": name},
		"spec":     map[string]any{"type": itemType, "config": cfg},
	}}, nil
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
	return out, unmarshalExact(b, &out)
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

func unmarshalExact(b []byte, v any) error {
	return api.DecodeExact(b, v, api.AllowTrailing)
}
