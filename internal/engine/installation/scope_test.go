package installation

import (
	"strings"
	"testing"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine/snapshot"
)

func TestSiblingGraph(t *testing.T) {
	tests := []struct {
		name    string
		rule    string
		names   []string
		imports map[string][]string
		exports map[string][]string
		want    map[string]string // name -> dependsOn joined
		wantErr string
	}{
		{"DataFlow", "a sibling that imports another's export depends on it", []string{"db", "web"},
			map[string][]string{"web": {"dbOut", "cluster"}, "db": {"cluster"}}, map[string][]string{"db": {"dbOut"}},
			map[string]string{"db": "", "web": "db"}, ""},
		{"Independent", "siblings without data flow between them are independent (run concurrently)", []string{"a", "b"},
			map[string][]string{"a": {"x"}, "b": {"y"}}, map[string][]string{},
			map[string]string{"a": "", "b": ""}, ""},
		{"Cycle", "a cycle between siblings is an error naming it", []string{"a", "b"},
			map[string][]string{"a": {"fromB"}, "b": {"fromA"}}, map[string][]string{"a": {"fromA"}, "b": {"fromB"}},
			nil, "subinstallations depend on each other in a cycle: a -> b -> a"},
		{"DuplicateExport", "two siblings may not export the same name", []string{"a", "b"},
			map[string][]string{}, map[string][]string{"a": {"x"}, "b": {"x"}},
			nil, `subinstallations "a" and "b" both export "x"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			nodes, err := siblingGraph(tt.imports, tt.exports, tt.names)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("%s: error %v", tt.rule, err)
				}
				return
			}
			if err != nil {
				t.Fatalf("%s: %v", tt.rule, err)
			}
			for _, n := range nodes {
				if got := strings.Join(n.DependsOn, ","); got != tt.want[n.Name] {
					t.Errorf("%s: %s depends on %q, want %q", tt.rule, n.Name, got, tt.want[n.Name])
				}
			}
		})
	}
}

func TestScopeResolve(t *testing.T) {
	cluster := api.NewTarget("cluster", "", api.KubernetesClusterTargetType, nil)
	other := api.NewTarget("other", "", api.KubernetesClusterTargetType, nil)
	base := newScope(blueprint.Imports{Data: map[string]any{"prefix": "p"}, Targets: map[string]api.Target{"cluster": cluster},
		TargetLists: map[string][]api.Target{"all": {cluster, other}}})
	db := &snapshot.Installation{Name: "db", Exports: map[string]any{"out": "p-x"}, TargetExports: map[string]api.Target{"t": other}}
	s := base.with([]*snapshot.Installation{db}, map[string]api.SubinstallationTemplate{"db": {
		Exports: api.InstallationExports{Data: []api.DataExport{{Name: "out", DataRef: "dbOut"}}, Targets: []api.TargetExport{{Name: "t", Target: "dbCluster"}}}}})
	tests := []struct {
		name    string
		rule    string
		imp     api.InstallationImports
		check   func(blueprint.Imports) bool
		wantErr string
	}{
		{"ParentImport", "a subinstallation imports its parent's imports by import name",
			api.InstallationImports{Data: []api.DataImport{{Name: "in", DataRef: "prefix"}}},
			func(i blueprint.Imports) bool { return i.Data["in"] == "p" }, ""},
		{"SiblingExport", "and its siblings' exports by dataRef / target name",
			api.InstallationImports{Data: []api.DataImport{{Name: "in", DataRef: "dbOut"}}, Targets: []api.TargetImport{{Name: "c", Target: "dbCluster"}}},
			func(i blueprint.Imports) bool {
				return i.Data["in"] == "p-x" && i.Targets["c"].Metadata.Name == "dbCluster"
			}, ""},
		{"TargetListAndMap", "target lists and maps are built from scope targets; targetListRef passes a parent's list",
			api.InstallationImports{Targets: []api.TargetImport{{Name: "l", Targets: []string{"cluster", "dbCluster"}}, {Name: "m", TargetMap: map[string]string{"eu": "cluster"}}, {Name: "r", TargetListRef: "all"}}},
			func(i blueprint.Imports) bool {
				return len(i.TargetLists["l"]) == 2 && i.TargetMaps["m"]["eu"].Metadata.Name == "cluster" && len(i.TargetLists["r"]) == 2
			}, ""},
		{"GlobalPrefix", "Landscaper's # prefix resolves in the scope",
			api.InstallationImports{Data: []api.DataImport{{Name: "in", DataRef: "#prefix"}}},
			func(i blueprint.Imports) bool { return i.Data["in"] == "p" }, ""},
		{"Missing", "a name the scope does not hold is an error naming import and reference",
			api.InstallationImports{Data: []api.DataImport{{Name: "in", DataRef: "nope"}}},
			nil, `subinstallation web: data import "in" (dataRef "nope") not found`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := s.importsFor("web", tt.imp)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("%s: error %v", tt.rule, err)
				}
				return
			}
			if err != nil || !tt.check(got) {
				t.Fatalf("%s: %v %+v", tt.rule, err, got)
			}
		})
	}
}
