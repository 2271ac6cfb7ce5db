package component

import "testing"

// Overwrites substitute as Landscaper's ComponentVersionOverwrites do:
// an empty source field matches anything, matching overwrites merge in
// order, one that would replace an already substituted field is skipped
// as a whole, and the repository context is compared as a location.
func TestOverwrites_Apply(t *testing.T) {
	repo := RepositorySpec{Type: "ociRegistry", BaseURL: "registry.test/base"}
	other := &RepositorySpec{Type: "OCIRegistry", BaseURL: "registry.test/other", ComponentNameMapping: MappingURLPath}
	ref := VersionRef{Context: repo, Name: "example.com/a", Version: "v1"}
	sameRepo := &RepositorySpec{Type: "ociRegistry/v1", BaseURL: "registry.test/base/", ComponentNameMapping: MappingURLPath}
	for name, c := range map[string]struct {
		o       Overwrites
		want    VersionRef
		matched bool
	}{
		"none":           {nil, ref, false},
		"other name":     {Overwrites{{Source: OverwriteRef{ComponentName: "example.com/b"}, Substitution: OverwriteRef{Version: "v2"}}}, ref, false},
		"version":        {Overwrites{{Source: OverwriteRef{ComponentName: "example.com/a", Version: "v1"}, Substitution: OverwriteRef{Version: "v2"}}}, VersionRef{Context: repo, Name: "example.com/a", Version: "v2"}, true},
		"by context":     {Overwrites{{Source: OverwriteRef{RepositoryContext: sameRepo}, Substitution: OverwriteRef{RepositoryContext: other}}}, VersionRef{Context: *other, Name: "example.com/a", Version: "v1"}, true},
		"other context":  {Overwrites{{Source: OverwriteRef{RepositoryContext: other}, Substitution: OverwriteRef{Version: "v9"}}}, ref, false},
		"name and merge": {Overwrites{{Source: OverwriteRef{Version: "v1"}, Substitution: OverwriteRef{ComponentName: "example.com/b"}}, {Source: OverwriteRef{ComponentName: "example.com/a"}, Substitution: OverwriteRef{Version: "v3"}}}, VersionRef{Context: repo, Name: "example.com/b", Version: "v3"}, true},
		"conflict skipped": {Overwrites{
			{Source: OverwriteRef{ComponentName: "example.com/a"}, Substitution: OverwriteRef{Version: "v2"}},
			{Source: OverwriteRef{Version: "v1"}, Substitution: OverwriteRef{Version: "v3", ComponentName: "example.com/c"}},
		}, VersionRef{Context: repo, Name: "example.com/a", Version: "v2"}, true},
	} {
		got, matched := c.o.Apply(ref)
		if got != c.want || matched != c.matched {
			t.Errorf("%s: %+v %v, want %+v %v", name, got, matched, c.want, c.matched)
		}
	}
}
