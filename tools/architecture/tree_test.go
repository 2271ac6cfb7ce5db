package main

import (
	"os"
	"testing"
)

// TestTreeInArchitecture proves ARCHITECTURE.md shows the package tree
// `go list` gives today: a package added, moved, re-documented or
// importing another one makes it fail until the tree is written again.
func TestTreeInArchitecture(t *testing.T) {
	module, pkgs, err := listPackages("../..")
	if err != nil {
		t.Fatal(err)
	}
	doc, err := os.ReadFile("../../ARCHITECTURE.md")
	if err != nil {
		t.Fatal(err)
	}
	shown, _, _, err := treeIn(string(doc))
	if err != nil {
		t.Fatal(err)
	}
	if want := tree(module, pkgs); shown != want {
		t.Errorf("the package tree in ARCHITECTURE.md is not the one go list gives; run `go run ./tools/architecture -write` and review the diff.\nwant:\n%s", want)
	}
}

// TestFirstClause proves the tree's descriptions are the start of each
// package comment, without its "Package x" and up to its first break.
func TestFirstClause(t *testing.T) {
	for doc, want := range map[string]string{
		"Package dag is the pure part of the ordering: validating.": "the pure part of the ordering",
		"Package helm is the deployer of type helm.":                "the deployer of type helm",
		"Command x serves the provider (over protocol 6).":          "serves the provider",
		"": "(no package comment)",
	} {
		if got := firstClause(doc); got != want {
			t.Errorf("firstClause(%q) = %q, want %q", doc, got, want)
		}
	}
}
