package dag

import (
	"reflect"
	"testing"
)

// Item is a node with its status, for readable tables.
type Item struct {
	Name      string
	DependsOn []string
	Status    Status
}

// classify runs a classification over items and returns classes by name.
func classify(items []Item, del bool) map[string]Class {
	nodes := make([]Node, len(items))
	status := make([]Status, len(items))
	for i, it := range items {
		nodes[i], status[i] = Node{Name: it.Name, DependsOn: it.DependsOn}, it.Status
	}
	g := Compile(nodes)
	classes := g.ClassifyInstall(status)
	if del {
		classes = g.ClassifyDelete(status)
	}
	out := map[string]Class{}
	for i, c := range classes {
		if c != 0 {
			out[g.Names[i]] = c
		}
	}
	return out
}

func TestClassifyInstall(t *testing.T) {
	tests := []struct {
		name  string
		rule  string
		items []Item
		want  map[string]Class
	}{
		{"Triggered", "triggered items are A (succeeded), B (failed) or C (not finished)",
			[]Item{{Name: "a", Status: Succeeded}, {Name: "b", Status: Failed}, {Name: "c", Status: Running}},
			map[string]Class{"a": ClassA, "b": ClassB, "c": ClassC}},
		{"NoPredecessors", "an untriggered item without dependsOn has no pending predecessors: D",
			[]Item{{Name: "a"}}, map[string]Class{"a": ClassD}},
		{"PredecessorRunning", "an untriggered item whose predecessor is not finished is E",
			[]Item{{Name: "a", Status: Running}, {Name: "b", DependsOn: []string{"a"}}},
			map[string]Class{"a": ClassC, "b": ClassE}},
		{"PredecessorNotTriggered", "an untriggered predecessor is pending too: E",
			[]Item{{Name: "a"}, {Name: "b", DependsOn: []string{"a"}}},
			map[string]Class{"a": ClassD, "b": ClassE}},
		{"PredecessorsFinished", "an item whose predecessors all finished (even failed) is D",
			[]Item{{Name: "a", Status: Succeeded}, {Name: "b", Status: Failed}, {Name: "c", DependsOn: []string{"a", "b"}}},
			map[string]Class{"a": ClassA, "b": ClassB, "c": ClassD}},
		{"DiamondHalfDone", "a join waits for every predecessor",
			[]Item{{Name: "a", Status: Succeeded}, {Name: "b", DependsOn: []string{"a"}, Status: Succeeded}, {Name: "c", DependsOn: []string{"a"}, Status: Running}, {Name: "d", DependsOn: []string{"b", "c"}}},
			map[string]Class{"a": ClassA, "b": ClassA, "c": ClassC, "d": ClassE}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := classify(tt.items, false); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("%s: got %v, want %v", tt.rule, got, tt.want)
			}
		})
	}
}

func TestClassifyDelete(t *testing.T) {
	tests := []struct {
		name  string
		rule  string
		items []Item
		want  map[string]Class
	}{
		{"GoneLeftOut", "gone items are not classified (there is no DeleteSucceeded)",
			[]Item{{Name: "a", Status: Gone}}, map[string]Class{}},
		{"SuccessorExists", "an item is deleted only when nothing that depends on it still exists: E",
			[]Item{{Name: "a"}, {Name: "b", DependsOn: []string{"a"}}},
			map[string]Class{"a": ClassE, "b": ClassD}},
		{"SuccessorGone", "once its successors are gone the item is D",
			[]Item{{Name: "a"}, {Name: "b", DependsOn: []string{"a"}, Status: Gone}},
			map[string]Class{"a": ClassD}},
		{"SuccessorDeleting", "a successor still being deleted keeps its predecessor waiting",
			[]Item{{Name: "a"}, {Name: "b", DependsOn: []string{"a"}, Status: Running}},
			map[string]Class{"a": ClassE, "b": ClassC}},
		{"DeleteFailed", "a finished, failed deletion is B",
			[]Item{{Name: "a", Status: Failed}}, map[string]Class{"a": ClassB}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := classify(tt.items, true); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("%s: got %v, want %v", tt.rule, got, tt.want)
			}
		})
	}
}

func TestNext(t *testing.T) {
	tests := []struct {
		name        string
		rule        string
		classes     map[string]Class
		want        Decision
		wantTrigger []string
	}{
		{"AllA", "all items in A: continue with Completing",
			map[string]Class{"a": ClassA, "b": ClassA}, Decision{Action: Done}, nil},
		{"Empty", "no items (or all gone): done",
			map[string]Class{}, Decision{Action: Done}, nil},
		{"FailedWhileRunning", "an item in B with items in C: trigger nothing new, wait",
			map[string]Class{"a": ClassB, "b": ClassC, "c": ClassD}, Decision{Action: Wait}, nil},
		{"FailedNothingRunning", "an item in B and none in C: Failed",
			map[string]Class{"a": ClassB, "c": ClassD, "e": ClassE}, Decision{Action: Fail}, nil},
		{"TriggerD", "otherwise every item in D is triggered, together",
			map[string]Class{"a": ClassA, "c": ClassD, "b": ClassD, "r": ClassC, "e": ClassE}, Decision{Action: Trigger}, []string{"b", "c"}},
		{"WaitRunning", "nothing triggerable but items running: wait",
			map[string]Class{"r": ClassC, "e": ClassE}, Decision{Action: Wait}, nil},
		{"Stuck", "items in E with nothing in C or D: stuck, Failed",
			map[string]Class{"a": ClassA, "e": ClassE}, Decision{Action: Stuck}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			names := []string{"a", "b", "c", "e", "r"}
			var classes []Class
			var index []string
			for _, n := range names {
				if c, ok := tt.classes[n]; ok {
					classes = append(classes, c)
					index = append(index, n)
				}
			}
			got := Next(classes)
			var trigger []string
			for _, i := range got.Trigger {
				trigger = append(trigger, index[i])
			}
			if got.Action != tt.want.Action || !reflect.DeepEqual(trigger, tt.wantTrigger) {
				t.Errorf("%s: got %+v (%v), want %+v (%v)", tt.rule, got, trigger, tt.want, tt.wantTrigger)
			}
		})
	}
}
