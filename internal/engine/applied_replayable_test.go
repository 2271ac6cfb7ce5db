package engine

import (
	"context"
	"testing"
)

// A job's rendering may be reused by a plan (Applied.Replayable) only when
// every installation of the tree rendered before deploying and renders the
// same from the same inputs.
func TestApplyJob_Replayable(t *testing.T) {
	for _, c := range []struct {
		name string
		yaml string
		want bool
	}{
		{"a tree of plain templates", treeBlueprint("", subinstallation("db", componentBlueprint(""), "prefix", "final")), true},
		{"random in a nested blueprint",
			treeBlueprint("", subinstallation("db", componentBlueprint(`rnd: "{{ randAlphaNum 3 }}"`), "prefix", "final")), false},
		{"the clock in the root", treeBlueprint(`year: "{{ now | date "2006" }}"`), false},
		// web imports db's export: rendered only during the job.
		{"a sibling rendered during the job", treeBlueprint("", subinstallation("db", componentBlueprint(""), "prefix", "dbOut"),
			subinstallation("web", componentBlueprint(""), "dbOut", "final")), false},
	} {
		t.Run(c.name, func(t *testing.T) {
			e, _, _ := newEngine()
			res, err := e.ApplyJob(context.Background(), rootSpec(t, c.yaml), nil)
			if err != nil {
				t.Fatal(err)
			}
			if res.Replayable != c.want {
				t.Errorf("Replayable = %v, want %v", res.Replayable, c.want)
			}
		})
	}
}
