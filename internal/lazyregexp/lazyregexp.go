// Package lazyregexp compiles regular expressions on first use instead of
// at package init. Every start of the provider runs the package inits
// (Terraform starts it several times per command, each sandbox child once
// more), and most starts never need a given pattern (tools/bench/RESULTS.md,
// "A smaller floor"), so a package-level pattern is declared with New.
package lazyregexp

import (
	"regexp"
	"sync"
)

// New returns a function that compiles expr the first time it is called
// and returns the same *regexp.Regexp on every call. expr must compile: a
// bad pattern panics on first use, as regexp.MustCompile does at init.
func New(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}
