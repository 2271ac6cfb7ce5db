package snapshot

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
)

// big is 2^53 + 1, the first integer float64 cannot hold.
const big = "9007199254740993"

func TestCodec_IntegersAbove2To53KeepTheirDigits(t *testing.T) {
	// configs, provider statuses, exports and execution state keep integers above 2^53 through Marshal and Unmarshal (also a v1 migration)
	s := &Snapshot{Root: &Installation{Path: "root", Name: "root",
		Targets: TargetImports{Single: map[string]api.Target{"c": api.NewTarget("c", "", "t", json.RawMessage(`{"port":`+big+`}`))}},
		Exports: map[string]any{"id": json.Number(big)},
		State:   map[string]json.RawMessage{"deploy/main": json.RawMessage(`{"n":` + big + `}`)},
		Execution: &Execution{DeployItems: []*DeployItem{{ID: "root/a", Name: "a", Type: "x",
			Config: json.RawMessage(`{"replicas":` + big + `}`), ProviderStatus: json.RawMessage(`{"uid":` + big + `}`),
			Exports: map[string]any{"n": json.Number(big)}}}}}}
	b, err := Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(b), big); n != 6 {
		t.Fatalf("%d of 6 values kept their digits in %s", n, b)
	}
	back, err := Unmarshal(b)
	if err != nil {
		t.Fatal(err)
	}
	again, err := Marshal(back)
	if err != nil {
		t.Fatal(err)
	}
	if string(again) != string(b) {
		t.Fatalf("changed by a round trip:\n%s\n%s", b, again)
	}
	if got := back.Exports()["id"]; got != json.Number(big) {
		t.Errorf("export decoded as %T %v", got, got)
	}
	v1 := strings.Replace(string(b), `"version":2`, `"version":1`, 1)
	if migrated, err := Unmarshal([]byte(v1)); err != nil || string(migrated.Root.Execution.DeployItems[0].Config) != `{"replicas":`+big+`}` {
		t.Errorf("migration: %v %+v", err, migrated)
	}
}

func TestHash_DistinguishesIntegersAbove2To53(t *testing.T) {
	// two configs that differ only in an integer above 2^53 are different configs
	if Hash(json.RawMessage(`{"n":`+big+`}`)) == Hash(json.RawMessage(`{"n":9007199254740992}`)) {
		t.Error("equal hashes")
	}
	if Hash(json.RawMessage(`{"a":1, "b":2}`)) != Hash(json.RawMessage(`{"b":2,"a":1}`)) {
		t.Error("key order changed the hash")
	}
}
