package manifest

import (
	"context"
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
)

// Drift reads every managed object once and reports the first one that is
// missing, owned by someone else, or differs from its manifest (under the
// merge strategy: lacks a field of it, since Apply keeps values the
// cluster holds). Objects
// the manifest no longer lists are a configuration change, not drift, and
// are left to Apply. An object still at the resourceVersion Apply left it
// at is what Apply saw (unmoved): only the others are read whole. Several
// objects of one kind in one namespace are read with one list by the
// item's owner label; the reads run in parallel.
func (s *Session) Drift(ctx context.Context, objs []*Desired, managed []ManagedResource) (deployer.DriftReport, error) {
	mappings, err := s.resolve(objs)
	if err != nil {
		return deployer.DriftReport{}, err
	}
	byKey := map[key]*Desired{}
	for _, d := range objs {
		byKey[keyOf(d.Ref())] = d
	}
	var checked []ManagedResource
	var desired []*Desired
	for _, r := range managed {
		if d, ok := byKey[keyOf(r.Resource)]; ok && r.Policy != PolicyIgnore {
			checked, desired = append(checked, r), append(desired, d)
		}
	}
	unmoved := s.unmoved(ctx, checked, func(i int) mapping { return mappings[desired[i]] })
	n := 0
	for i := range checked {
		if !unmoved[i] {
			checked[n], desired[n] = checked[i], desired[i]
			n++
		}
	}
	checked, desired = checked[:n], desired[:n]
	live, err := s.readAll(ctx, checked, func(i int) mapping { return mappings[desired[i]] })
	if err != nil {
		return deployer.DriftReport{}, err
	}
	for i, r := range checked {
		if reason := s.driftOf(r, desired[i], live[i], s.strategy); reason != "" {
			return drifted("%s", reason), nil
		}
	}
	return deployer.DriftReport{}, nil
}

// driftOf says why live (nil: it does not exist) is drift from d as r
// records it under strategy; "" when it is none. Apply asks it too, of
// what it read, before it records the object's resourceVersion
// (applyObject): an unmoved object must be one this finds no drift in.
func (s *Session) driftOf(r ManagedResource, d *Desired, live *unstructured.Unstructured, strategy UpdateStrategy) string {
	adopted := live != nil && adoptedFromLandscaper(live, r)
	switch {
	case live == nil:
		return fmt.Sprintf("%s no longer exists", r.Resource)
	case live.GetLabels()[deployer.OwnerLabel] != s.owner && !adopted:
		return fmt.Sprintf("%s is no longer labeled as owned by this deploy item", r.Resource)
	case r.Policy == PolicyImmutable:
		return ""
	}
	want := expected(d)
	if adopted {
		want = withoutOwnerMarks(want)
	}
	if strategy == UpdateStrategyMerge {
		// Apply keeps the values the cluster holds (keepExisting):
		// only a field missing there is something it would repair.
		want = keepExisting(want, live.Object)
	}
	if path, found := objectDifference(want, live.Object); found {
		// Only the path: the values may be secret.
		return fmt.Sprintf("%s differs from its manifest at %s", r.Resource, s.differsAt(live, path))
	}
	return ""
}

// readAll returns the live objects of managed (nil where one does not
// exist). The job's shared list of the installation's members answers
// first (sharedMember); of the rest, an object alone of its kind and
// namespace is read by name, several are listed by the owner label,
// which one request answers for all.
func (s *Session) readAll(ctx context.Context, managed []ManagedResource, mappingOf func(int) mapping) ([]*unstructured.Unstructured, error) {
	live := make([]*unstructured.Unstructured, len(managed))
	groups := byKind(managed, mappingOf, func(i int, m mapping) bool {
		u, found := s.sharedMember(ctx, m, managed[i].Resource)
		live[i] = u
		return !found
	})
	err := parallelEach(ctx, len(groups), func(ctx context.Context, gi int) error {
		g := groups[gi]
		client := s.client(g.m, g.ns)
		if len(g.members) == 1 {
			i := g.members[0]
			u, err := client.Get(ctx, managed[i].Resource.Name, metav1.GetOptions{})
			if apierrors.IsNotFound(err) {
				return nil
			}
			if err != nil {
				return fmt.Errorf("%s: %w", managed[i].Resource, err)
			}
			live[i] = u
			return nil
		}
		list, err := client.List(ctx, metav1.ListOptions{LabelSelector: deployer.OwnerLabel + "=" + s.owner})
		if err != nil {
			return fmt.Errorf("listing %s of deploy item %s: %w", g.m.GVR.Resource, s.itemID, err)
		}
		byName := make(map[string]*unstructured.Unstructured, len(list.Items))
		for j := range list.Items {
			byName[list.Items[j].GetName()] = &list.Items[j]
		}
		for _, i := range g.members {
			if live[i] = byName[managed[i].Resource.Name]; live[i] != nil {
				continue
			}
			// Gone, or relabeled: only a read by name tells which (drift
			// either way, so this is rare).
			u, err := client.Get(ctx, managed[i].Resource.Name, metav1.GetOptions{})
			if err != nil && !apierrors.IsNotFound(err) {
				return fmt.Errorf("%s: %w", managed[i].Resource, err)
			}
			if err == nil {
				live[i] = u
			}
		}
		return nil
	})
	return live, err
}

// kindGroup is the members (indexes) of one kind in one namespace.
type kindGroup struct {
	m       mapping
	ns      string
	members []int
}

// byKind groups the resources of managed that include takes by kind and
// namespace, in the order they first appear.
func byKind(managed []ManagedResource, mappingOf func(int) mapping, include func(int, mapping) bool) []*kindGroup {
	var groups []*kindGroup
	index := map[streamKey]*kindGroup{}
	for i, r := range managed {
		m := mappingOf(i)
		if !include(i, m) {
			continue
		}
		k := streamKey{gvr: m.GVR, namespace: scope(m, r.Resource.Namespace)}
		g := index[k]
		if g == nil {
			g = &kindGroup{m: m, ns: k.namespace}
			index[k] = g
			groups = append(groups, g)
		}
		g.members = append(g.members, i)
	}
	return groups
}

func drifted(format string, args ...any) deployer.DriftReport {
	return deployer.DriftReport{Drifted: true, Reason: fmt.Sprintf(format, args...)}
}

// Compare reads each object once and returns why the first one that is
// missing or differs from its manifest does so, or "" if all match. Unlike
// Drift it ignores ownership labels: Helm releases own their objects.
func (s *Session) Compare(ctx context.Context, objs []*Desired) (string, error) {
	mappings, err := s.resolve(objs)
	if err != nil {
		return "", err
	}
	live := make([]*unstructured.Unstructured, len(objs))
	err = parallelEach(ctx, len(objs), func(ctx context.Context, i int) error {
		ref := objs[i].Ref()
		u, err := s.client(mappings[objs[i]], ref.Namespace).Get(ctx, ref.Name, metav1.GetOptions{})
		if apierrors.IsNotFound(err) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("%s: %w", ref, err)
		}
		live[i] = u
		return nil
	})
	if err != nil {
		return "", err
	}
	for i, d := range objs {
		ref := d.Ref()
		if live[i] == nil {
			return fmt.Sprintf("%s no longer exists", ref), nil
		}
		if path, found := objectDifference(d.Object.Object, live[i].Object); found {
			return fmt.Sprintf("%s differs from the release manifest at %s", ref, s.differsAt(live[i], path)), nil
		}
	}
	return "", nil
}
