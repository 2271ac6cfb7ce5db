package snapshot

import (
	"encoding/json"
	"fmt"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
)

// migrations[v] turns a version v document into a version v+1 document.
var migrations = map[int]func([]byte) ([]byte, error){
	1: migrateV1,
}

// migrateV1: version 1 wrote lastError as a plain message string on
// installations, executions and deploy items; version 2 writes
// {operation, reason, message}. The operation of an old error is unknown.
func migrateV1(b []byte) ([]byte, error) {
	var doc map[string]any
	if err := api.DecodeExact(b, &doc); err != nil {
		return nil, err
	}
	if root, ok := doc["root"].(map[string]any); ok {
		if err := migrateV1Installation(root); err != nil {
			return nil, err
		}
	}
	doc["version"] = 2
	return json.Marshal(doc)
}

func migrateV1Installation(in map[string]any) error {
	if err := migrateV1Error(in); err != nil {
		return fmt.Errorf("installation %v: %w", in["path"], err)
	}
	if exec, ok := in["execution"].(map[string]any); ok {
		if err := migrateV1Error(exec); err != nil {
			return fmt.Errorf("execution of %v: %w", in["path"], err)
		}
		items, _ := exec["deployItems"].([]any)
		for _, raw := range items {
			if item, ok := raw.(map[string]any); ok {
				if err := migrateV1Error(item); err != nil {
					return fmt.Errorf("deploy item %v: %w", item["id"], err)
				}
			}
		}
	}
	subs, _ := in["subinstallations"].([]any)
	for _, raw := range subs {
		if sub, ok := raw.(map[string]any); ok {
			if err := migrateV1Installation(sub); err != nil {
				return err
			}
		}
	}
	return nil
}

func migrateV1Error(obj map[string]any) error {
	switch v := obj["lastError"].(type) {
	case nil:
		delete(obj, "lastError")
	case string:
		if v == "" {
			delete(obj, "lastError")
			return nil
		}
		obj["lastError"] = map[string]any{"operation": "Unknown", "message": v}
	default:
		return fmt.Errorf("lastError is %T, want a string in version 1", v)
	}
	return nil
}
