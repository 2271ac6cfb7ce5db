package snapshot

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
)

func TestUnmarshal_MigratesV1(t *testing.T) {
	// a version 1 snapshot (lastError as a string) loads as the current version with structured errors
	in, err := os.ReadFile("testdata/migration/v1.json")
	if err != nil {
		t.Fatal(err)
	}
	s, err := Unmarshal(in)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	if os.Getenv("UPDATE_GOLDEN") != "" {
		if err := os.WriteFile("testdata/migration/v2.golden.json", append(got, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile("testdata/migration/v2.golden.json")
	if err != nil {
		t.Fatal(err)
	}
	if string(got)+"\n" != string(want) {
		t.Errorf("migrated (exact Marshal output expected):\n%s\nwant:\n%s", got, want)
	}
	if s.Root.LastError == nil || s.Root.LastError.Operation != "Unknown" || s.Root.Execution.LastError != nil {
		t.Errorf("lastError %+v / %+v", s.Root.LastError, s.Root.Execution.LastError)
	}
}

func TestUnmarshal_Versions(t *testing.T) {
	tests := []struct {
		name, in, wantErr string
		rule              string
	}{
		{"Empty", "", "", "empty private state is an empty snapshot"},
		{"Newer", `{"version": 99}`, "newer than this provider understands", "a newer version is refused, not guessed"},
		{"NoVersion", `{"root": {}}`, "no valid version", "a document without version is refused"},
		{"Garbage", `{`, "decoding snapshot", "invalid JSON is an error, not a panic"},
		{"NullItem", `{"version": 2, "root": {"path": "r", "name": "r", "execution": {"deployItems": [null]}}}`, "deploy item #0 has no name", "a null deploy item is rejected, not walked"},
		{"NullSub", `{"version": 2, "root": {"path": "r", "name": "r", "subinstallations": [null]}}`, "subinstallation #0 is null", "a null subinstallation is rejected"},
		{"DuplicateItem", `{"version": 2, "root": {"path": "r", "name": "r", "execution": {"deployItems": [{"name": "a"}, {"name": "a"}]}}}`, `duplicate deploy item "a"`, "duplicate item names are rejected"},
		{"UnnamedRoot", `{"version": 2, "root": {}}`, "has no name", "a root without name is rejected"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := Unmarshal([]byte(tt.in))
			if tt.wantErr == "" {
				if err != nil || !s.Empty() {
					t.Fatalf("%s: %v", tt.rule, err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("%s: error %v", tt.rule, err)
			}
		})
	}
}

func TestMarshal_Deterministic(t *testing.T) {
	// the same tree always gives the same bytes, whatever the order of children, items and map keys
	build := func(reverse bool) *Snapshot {
		items := []*DeployItem{{ID: "r/a", Name: "a", Config: json.RawMessage(`{"b": 1,  "a": 2}`)}, {ID: "r/b", Name: "b"}}
		subs := []*Installation{{Path: "r/x", Name: "x"}, {Path: "r/y", Name: "y"}}
		if reverse {
			items[0], items[1] = items[1], items[0]
			subs[0], subs[1] = subs[1], subs[0]
		}
		return &Snapshot{Root: &Installation{Path: "r", Name: "r", Exports: map[string]any{"z": 1, "a": 2},
			Execution: &Execution{DeployItems: items}, Subinstallations: subs}}
	}
	a, errA := Marshal(build(false))
	b, errB := Marshal(build(true))
	if errA != nil || errB != nil {
		t.Fatalf("marshal: %v, %v", errA, errB)
	}
	if len(a) == 0 || string(a) != string(b) {
		t.Fatalf("%s\n%s", a, b)
	}
	// Marshal only reads: the caller's tree keeps its order
	unsorted := build(true)
	unsorted.Root.ImportRefs = []string{"z", "a"}
	if _, err := Marshal(unsorted); err != nil {
		t.Fatal(err)
	}
	if unsorted.Root.Execution.DeployItems[0].Name != "b" || unsorted.Root.Subinstallations[0].Name != "y" || unsorted.Root.ImportRefs[0] != "z" {
		t.Error("Marshal reordered the tree it was given")
	}
	if Hash(json.RawMessage(`{"b": 1, "a": 2}`)) != Hash(json.RawMessage(`{"a":2,"b":1}`)) {
		t.Error("config hash depends on key order or whitespace")
	}
}

func TestSelect(t *testing.T) {
	one := api.NewTarget("c", "", api.KubernetesClusterTargetType, nil)
	two := api.NewTarget("d", "", api.KubernetesClusterTargetType, nil)
	imports := TargetImports{Single: map[string]api.Target{"cluster": one},
		Lists: map[string][]api.Target{"list": {one, two}}, Maps: map[string]map[string]api.Target{"map": {"eu": two}}}
	idx := func(i int) *int { return &i }
	tests := []struct {
		name    string
		rule    string
		sel     *api.TargetSelector
		want    string
		wantErr string
	}{
		{"None", "no selector selects no target", nil, "", ""},
		{"Import", "{import: x} selects a target import", &api.TargetSelector{Import: "cluster"}, "c", ""},
		{"LegacyName", "{name: x} is resolved like import", &api.TargetSelector{Name: "cluster"}, "c", ""},
		{"ListIndex", "{import: l, index: i} selects a targetList element", &api.TargetSelector{Import: "list", Index: idx(1)}, "d", ""},
		{"MapKey", "{import: m, key: k} selects a targetMap entry", &api.TargetSelector{Import: "map", Key: "eu"}, "d", ""},
		{"IndexOutOfRange", "an index outside the list is an error naming the import", &api.TargetSelector{Import: "list", Index: idx(2)}, "", `out of range of targetList import "list"`},
		{"MissingKey", "a missing key is an error naming key and import", &api.TargetSelector{Import: "map", Key: "us"}, "", `no key "us" in targetMap import "map"`},
		{"MissingImport", "an unknown import is an error", &api.TargetSelector{Import: "nope"}, "", `no target import "nope"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := imports.Select(tt.sel)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("%s: error %v", tt.rule, err)
				}
				return
			}
			if err != nil {
				t.Fatalf("%s: %v", tt.rule, err)
			}
			if (got == nil && tt.want != "") || (got != nil && got.Metadata.Name != tt.want) {
				t.Errorf("%s: got %+v", tt.rule, got)
			}
		})
	}
}

func TestMarshal_TargetsWrittenOnce(t *testing.T) {
	// each distinct target is written once however many installations import it, and decodes back in place
	secret := json.RawMessage(`{"kubeconfig":"SECRET-1"}`)
	other := json.RawMessage(`{"kubeconfig":"SECRET-2"}`)
	one := api.NewTarget("c", "", api.KubernetesClusterTargetType, secret)
	two := api.NewTarget("d", "", api.KubernetesClusterTargetType, other)
	imports := TargetImports{Single: map[string]api.Target{"cluster": one},
		Lists: map[string][]api.Target{"all": {one, two}}, Maps: map[string]map[string]api.Target{"by": {"eu": two}}}
	s := &Snapshot{Root: &Installation{Path: "r", Name: "r", Targets: imports,
		Subinstallations: []*Installation{{Path: "r/a", Name: "a", Targets: imports}, {Path: "r/b", Name: "b", Targets: TargetImports{Single: map[string]api.Target{"x": one}}}}}}
	b, err := Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(b), "SECRET-1"); n != 1 {
		t.Errorf("SECRET-1 written %d times:\n%s", n, b)
	}
	back, err := Unmarshal(b)
	if err != nil {
		t.Fatal(err)
	}
	a := back.Root.Subinstallations[0].Targets
	if string(a.Lists["all"][1].Spec.Config) != string(other) || a.Maps["by"]["eu"].Metadata.Name != "d" || back.Root.Subinstallations[1].Targets.Single["x"].Metadata.Name != "c" {
		t.Errorf("targets not restored: %+v", a)
	}
	again, _ := Marshal(back)
	if string(again) != string(b) {
		t.Error("not deterministic after a round trip")
	}
	if _, err := Unmarshal([]byte(strings.Replace(string(b), `"targetTable"`, `"otherTable"`, 1))); err == nil {
		t.Error("a reference to a missing table entry must be an error")
	}
}
