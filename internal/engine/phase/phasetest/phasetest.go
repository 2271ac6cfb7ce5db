// Package phasetest runs the transition tests of the engine's phase
// machines: each flow's test scripts which phases fail and how, and
// checks the phases the flow moves through.
package phasetest

import (
	"context"
	"slices"
	"testing"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine/phase"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/failure"
)

// Script is what the steps of a flow return: the error scripted for
// their phase (nil when none is). A transient error heals on the retry,
// a terminal one stays.
type Script[P comparable] map[P]error

// Step returns the error scripted for phase p.
func (s Script[P]) Step(p P) error {
	err := s[p]
	if !failure.IsTerminal(err) {
		delete(s, p)
	}
	return err
}

// Case is one scripted run of a flow: Want are the phases it moves to, in
// order, the last being the one it ends in.
type Case[P comparable] struct {
	Name, Rule string
	Script     Script[P]
	Want       []P
}

// Run runs every case as a subtest: build makes the flow's machine with
// steps that follow the case's script and with on observing its phase
// changes; the machine runs from start and must move through Want and
// end in its last phase. The flow's error is the step's own: the rules
// are about phases.
func Run[P comparable](t *testing.T, start P, build func(s Script[P], on func(from, to P)) *phase.Machine[P], cases []Case[P]) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			var got []P
			m := build(c.Script, func(_, to P) { got = append(got, to) })
			final, _ := m.Run(context.Background(), start)
			if len(c.Want) == 0 {
				t.Fatalf("%s: the case wants no phase", c.Rule)
			}
			if want := c.Want[len(c.Want)-1]; final != want {
				t.Fatalf("%s: ended in %v, want %v", c.Rule, final, want)
			}
			if !slices.Equal(got, c.Want) {
				t.Fatalf("%s: transitions %v, want %v", c.Rule, got, c.Want)
			}
		})
	}
}
