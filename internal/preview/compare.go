package preview

import (
	"sort"
	"strconv"
	"strings"
)

// Changes are the differences between two maps of objects (Key → text):
// the last applied and the planned. Terraform shows the same per key and,
// for a changed object, as a line diff of its text; Changes is for what
// Terraform does not do: saying in one line which objects of which items
// change (a plan warning, a data source, logs).
type Changes struct {
	Added, Removed, Changed []string
}

// Compare lists the keys only in after (Added), only in before
// (Removed), and in both with different text (Changed), each sorted.
func Compare(before, after map[string]string) Changes {
	var c Changes
	for k, a := range after {
		b, ok := before[k]
		switch {
		case !ok:
			c.Added = append(c.Added, k)
		case a != b:
			c.Changed = append(c.Changed, k)
		}
	}
	for k := range before {
		if _, ok := after[k]; !ok {
			c.Removed = append(c.Removed, k)
		}
	}
	sort.Strings(c.Added)
	sort.Strings(c.Removed)
	sort.Strings(c.Changed)
	return c
}

// Empty reports whether nothing changes.
func (c Changes) Empty() bool { return len(c.Added)+len(c.Removed)+len(c.Changed) == 0 }

// Items returns the IDs of the items with a change, sorted.
func (c Changes) Items() []string {
	set := map[string]bool{}
	for _, list := range [][]string{c.Added, c.Removed, c.Changed} {
		for _, k := range list {
			if id, _, ok := strings.Cut(k, ": "); ok {
				set[id] = true
			}
		}
	}
	out := make([]string, 0, len(set))
	for id := range set {
		out = append(out, id)
	}
	sort.Strings(out)
	return out
}

// String is "2 added, 1 removed, 3 changed".
func (c Changes) String() string {
	return strings.Join([]string{
		strconv.Itoa(len(c.Added)) + " added", strconv.Itoa(len(c.Removed)) + " removed", strconv.Itoa(len(c.Changed)) + " changed",
	}, ", ")
}
