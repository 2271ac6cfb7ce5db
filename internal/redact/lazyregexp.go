package redact

import (
	"regexp"
	"sync"
)

// lazyRegexp compiles expr on first use instead of at package init: every
// start of the provider (Terraform starts it several times per command,
// each sandbox child once more) runs the package inits, and most starts
// never need these patterns (tools/bench/RESULTS.md, "A smaller floor").
func lazyRegexp(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}
