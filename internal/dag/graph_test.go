package dag

import (
	"strings"
	"testing"
)

func TestValidate(t *testing.T) {
	tests := []struct {
		name    string
		rule    string
		nodes   []Node
		wantErr []string // substrings; empty = valid
	}{
		{
			name:  "Valid_Diamond",
			rule:  "a graph without duplicates, unknown dependencies or cycles is accepted",
			nodes: []Node{{Name: "a"}, {Name: "b", DependsOn: []string{"a"}}, {Name: "c", DependsOn: []string{"a"}}, {Name: "d", DependsOn: []string{"b", "c"}}},
		},
		{
			name:    "DuplicateName",
			rule:    "duplicate names are rejected at render time, naming the duplicate",
			nodes:   []Node{{Name: "a"}, {Name: "a"}},
			wantErr: []string{`deploy item "a": duplicate name`},
		},
		{
			name:    "UnknownDependsOn",
			rule:    "an undefined dependsOn is rejected, naming both items",
			nodes:   []Node{{Name: "a", DependsOn: []string{"x"}}},
			wantErr: []string{`deploy item "a": dependsOn "x" is not a deploy item`},
		},
		{
			name:    "EmptyName",
			rule:    "an item needs a name",
			nodes:   []Node{{Name: ""}},
			wantErr: []string{"deploy item #0: name must be set"},
		},
		{
			name:    "Cycle_ThreeNodes",
			rule:    "a cycle is rejected and the message names the cycle a -> b -> c -> a",
			nodes:   []Node{{Name: "a", DependsOn: []string{"b"}}, {Name: "b", DependsOn: []string{"c"}}, {Name: "c", DependsOn: []string{"a"}}},
			wantErr: []string{"deploy items depend on each other in a cycle: a -> b -> c -> a"},
		},
		{
			name:    "Cycle_SelfDependency",
			rule:    "an item depending on itself is a cycle",
			nodes:   []Node{{Name: "a", DependsOn: []string{"a"}}},
			wantErr: []string{"a -> a"},
		},
		{
			name:    "Cycle_BehindAcyclicPart",
			rule:    "the cycle is named without the acyclic path that leads into it",
			nodes:   []Node{{Name: "a", DependsOn: []string{"b"}}, {Name: "b", DependsOn: []string{"c"}}, {Name: "c", DependsOn: []string{"d"}}, {Name: "d", DependsOn: []string{"c"}}},
			wantErr: []string{"c -> d -> c"},
		},
		{
			name:    "DuplicateAndUnknownTogether",
			rule:    "all render-time problems are reported at once",
			nodes:   []Node{{Name: "a"}, {Name: "a"}, {Name: "b", DependsOn: []string{"zz"}}},
			wantErr: []string{`deploy item "a": duplicate name`, `dependsOn "zz" is not a deploy item`},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := Validate("deploy item", tt.nodes)
			if len(tt.wantErr) == 0 {
				if err != nil {
					t.Fatalf("%s: unexpected error %v", tt.rule, err)
				}
				return
			}
			if err == nil {
				t.Fatalf("%s: no error", tt.rule)
			}
			for _, w := range tt.wantErr {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("%s: error %q does not contain %q", tt.rule, err, w)
				}
			}
		})
	}
}

// TestFindCycle_Deterministic proves the same cycle is reported on every run
// whatever the input order.
func TestFindCycle_Deterministic(t *testing.T) {
	a := []Node{{Name: "c", DependsOn: []string{"a"}}, {Name: "b", DependsOn: []string{"c"}}, {Name: "a", DependsOn: []string{"b"}}}
	b := []Node{a[2], a[0], a[1]}
	for i := 0; i < 20; i++ {
		if got, want := strings.Join(FindCycle(a), ","), strings.Join(FindCycle(b), ","); got != want || got != "a,b,c,a" {
			t.Fatalf("cycle %q vs %q, want a,b,c,a", got, want)
		}
	}
}

func TestOrder(t *testing.T) {
	tests := []struct {
		name  string
		rule  string
		nodes []Node
		want  string
	}{
		{"Independent", "independent nodes keep their input order", []Node{{Name: "b"}, {Name: "a"}}, "b,a"},
		{"Chain", "every node comes after the nodes it depends on", []Node{{Name: "c", DependsOn: []string{"b"}}, {Name: "b", DependsOn: []string{"a"}}, {Name: "a"}}, "a,b,c"},
		{"Diamond", "a join comes after both branches", []Node{{Name: "d", DependsOn: []string{"b", "c"}}, {Name: "b", DependsOn: []string{"a"}}, {Name: "c", DependsOn: []string{"a"}}, {Name: "a"}}, "a,b,c,d"},
		{"Cycle", "nodes on a cycle come last instead of being lost", []Node{{Name: "x", DependsOn: []string{"y"}}, {Name: "y", DependsOn: []string{"x"}}, {Name: "a"}}, "a,x,y"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var names []string
			for _, i := range Order(tt.nodes) {
				names = append(names, tt.nodes[i].Name)
			}
			if got := strings.Join(names, ","); got != tt.want {
				t.Errorf("%s: %s, want %s", tt.rule, got, tt.want)
			}
		})
	}
}
