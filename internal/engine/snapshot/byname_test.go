package snapshot

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
)

// TestTargetImports_ByName: single, list and map imports by their Target's
// name; the same Target imported twice is one entry, two different
// Targets of one name are ambiguous and left out.
func TestTargetImports_ByName(t *testing.T) {
	target := func(name, kubeconfig string) api.Target {
		return api.NewTarget(name, "", api.KubernetesClusterTargetType, json.RawMessage(`{"kubeconfig":"`+kubeconfig+`"}`))
	}
	imports := TargetImports{
		Single: map[string]api.Target{"cluster": target("primary", "a"), "again": target("primary", "a"), "clash": target("twice", "x")},
		Lists:  map[string][]api.Target{"list": {target("listed", "b"), target("twice", "y")}},
		Maps:   map[string]map[string]api.Target{"map": {"eu": target("mapped", "c")}},
	}
	byName, ambiguous := imports.ByName()
	var names []string
	for n := range byName {
		names = append(names, n)
	}
	if len(byName) != 3 || byName["primary"] == nil || byName["listed"] == nil || byName["mapped"] == nil {
		t.Fatalf("ByName has %v, want primary, listed, mapped", names)
	}
	if strings.Join(ambiguous, ",") != "twice" {
		t.Fatalf("ambiguous %v, want [twice]", ambiguous)
	}
}
