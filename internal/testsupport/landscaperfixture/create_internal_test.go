package landscaperfixture

import "testing"

// Every owner is created in an earlier generation than what it owns, and
// every object in exactly one.
func TestGenerations_OwnersFirst(t *testing.T) {
	l := Build(Options{Namespace: "host", TargetNamespace: "target", Kubeconfig: "k"})
	gens := generations(l.Host)
	at := map[string]int{}
	seen := 0
	for g, idx := range gens {
		for _, i := range idx {
			o := l.Host[i]
			if _, dup := at[o.GetKind()+"/"+o.GetName()]; dup {
				t.Fatalf("%s %s twice", o.GetKind(), o.GetName())
			}
			at[o.GetKind()+"/"+o.GetName()] = g
			seen++
		}
	}
	if seen != len(l.Host) || len(gens) < 3 {
		t.Fatalf("%d of %d objects in %d generations", seen, len(l.Host), len(gens))
	}
	for _, o := range l.Host {
		for _, ref := range o.GetOwnerReferences() {
			owner, ok := at[ref.Kind+"/"+ref.Name]
			if !ok || owner >= at[o.GetKind()+"/"+o.GetName()] {
				t.Errorf("%s %s: owner %s %s in generation %d (found %v), itself in %d",
					o.GetKind(), o.GetName(), ref.Kind, ref.Name, owner, ok, at[o.GetKind()+"/"+o.GetName()])
			}
		}
	}
}
