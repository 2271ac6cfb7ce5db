package dag

import (
	"reflect"
	"testing"
)

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
			if got := ClassifyInstall(tt.items); !reflect.DeepEqual(got, tt.want) {
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
			if got := ClassifyDelete(tt.items); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("%s: got %v, want %v", tt.rule, got, tt.want)
			}
		})
	}
}

func TestNext(t *testing.T) {
	tests := []struct {
		name    string
		rule    string
		classes map[string]Class
		want    Decision
	}{
		{"AllA", "all items in A: continue with Completing",
			map[string]Class{"a": ClassA, "b": ClassA}, Decision{Action: Done}},
		{"Empty", "no items (or all gone): done",
			map[string]Class{}, Decision{Action: Done}},
		{"FailedWhileRunning", "an item in B with items in C: trigger nothing new, wait",
			map[string]Class{"a": ClassB, "b": ClassC, "c": ClassD}, Decision{Action: Wait}},
		{"FailedNothingRunning", "an item in B and none in C: Failed",
			map[string]Class{"a": ClassB, "c": ClassD, "e": ClassE}, Decision{Action: Fail}},
		{"TriggerD", "otherwise every item in D is triggered, together",
			map[string]Class{"a": ClassA, "c": ClassD, "b": ClassD, "r": ClassC, "e": ClassE}, Decision{Action: Trigger, Trigger: []string{"b", "c"}}},
		{"WaitRunning", "nothing triggerable but items running: wait",
			map[string]Class{"r": ClassC, "e": ClassE}, Decision{Action: Wait}},
		{"Stuck", "items in E with nothing in C or D: stuck, Failed",
			map[string]Class{"a": ClassA, "e": ClassE}, Decision{Action: Stuck}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Next(tt.classes); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("%s: got %+v, want %+v", tt.rule, got, tt.want)
			}
		})
	}
}
