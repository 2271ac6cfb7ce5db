// Command architecture prints the package tree of ARCHITECTURE.md from
// `go list`: every package of the module, nested by directory, with the
// first clause of its package comment and the packages of the module it
// imports. Its test (tree_test.go) fails when ARCHITECTURE.md shows
// another tree; names_test.go checks the document's backticked names.
//
//	go run ./tools/architecture            prints the tree
//	go run ./tools/architecture -write     rewrites the tree in ARCHITECTURE.md
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path"
	"regexp"
	"sort"
	"strings"
)

// listedPackage is what `go list -json` says of one package, as far as
// the tree needs it.
type listedPackage struct {
	ImportPath string
	Name       string
	Doc        string
	Imports    []string
	Module     *struct{ Path string }
}

// listPackages runs `go list -json ./...` in dir (the module's root).
func listPackages(dir string) (module string, pkgs []listedPackage, err error) {
	cmd := exec.Command("go", "list", "-json", "./...")
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", nil, fmt.Errorf("go list: %w: %s", err, stderr.String())
	}
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p listedPackage
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			return "", nil, fmt.Errorf("go list output: %w", err)
		}
		if p.Module != nil {
			module = p.Module.Path
		}
		pkgs = append(pkgs, p)
	}
	return module, pkgs, nil
}

// firstClause is the start of a package comment up to its first colon,
// semicolon, parenthesis or sentence end, without "Package x" or "Command x".
var docStart = regexp.MustCompile(`^(Package|Command) \S+ (is )?`)

func firstClause(doc string) string {
	s := docStart.ReplaceAllString(strings.TrimSpace(doc), "")
	if i := strings.IndexAny(s, ":;(—"); i > 0 {
		s = s[:i]
	}
	s = strings.TrimSuffix(strings.TrimSpace(s), ".")
	s = strings.TrimSuffix(s, ",")
	if s == "" {
		return "(no package comment)"
	}
	return s
}

// tree renders the packages: one line per package, nested by directory,
// then the package's own imports of the module as "→ a, b" (paths below
// internal/ without that prefix).
func tree(module string, pkgs []listedPackage) string {
	rel := func(p string) string {
		r := strings.TrimPrefix(strings.TrimPrefix(p, module), "/")
		if r == "" {
			return "."
		}
		return r
	}
	short := func(p string) string { return strings.TrimPrefix(rel(p), "internal/") }
	sort.Slice(pkgs, func(i, j int) bool { return rel(pkgs[i].ImportPath) < rel(pkgs[j].ImportPath) })
	known := map[string]bool{}
	for _, p := range pkgs {
		known[rel(p.ImportPath)] = true
	}
	var b strings.Builder
	for _, p := range pkgs {
		r := rel(p.ImportPath)
		// Indent below the nearest listed ancestor directory.
		depth, name := 0, r
		for d := path.Dir(r); d != "." && d != "/"; d = path.Dir(d) {
			if known[d] {
				if depth == 0 {
					name = strings.TrimPrefix(r, d+"/")
				}
				depth++
			}
		}
		line := strings.Repeat("  ", depth) + name
		fmt.Fprintf(&b, "%-40s %s\n", line, firstClause(p.Doc))
		var deps []string
		for _, imp := range p.Imports {
			if imp == module || strings.HasPrefix(imp, module+"/") {
				deps = append(deps, short(imp))
			}
		}
		if len(deps) > 0 {
			fmt.Fprintf(&b, "%-40s   → %s\n", "", strings.Join(deps, ", "))
		}
	}
	return b.String()
}

// The tree stands in ARCHITECTURE.md between these lines.
const (
	treeBegin = "<!-- package tree: go run ./tools/architecture -write -->\n```\n"
	treeEnd   = "```\n<!-- end of package tree -->\n"
)

// treeIn is the tree ARCHITECTURE.md shows, and where it stands.
func treeIn(doc string) (tree string, start, end int, err error) {
	start = strings.Index(doc, treeBegin)
	if start < 0 {
		return "", 0, 0, errors.New("ARCHITECTURE.md has no line " + strings.TrimSpace(strings.SplitN(treeBegin, "\n", 2)[0]))
	}
	body := start + len(treeBegin)
	n := strings.Index(doc[body:], treeEnd)
	if n < 0 {
		return "", 0, 0, errors.New("ARCHITECTURE.md: the package tree has no end line")
	}
	return doc[body : body+n], body, body + n, nil
}

func main() {
	write := flag.Bool("write", false, "rewrite the tree in ARCHITECTURE.md (run from the module's root)")
	flag.Parse()
	module, pkgs, err := listPackages(".")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	t := tree(module, pkgs)
	if !*write {
		fmt.Print(t)
		return
	}
	doc, err := os.ReadFile("ARCHITECTURE.md")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	_, start, end, err := treeIn(string(doc))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	out := string(doc[:start]) + t + string(doc[end:])
	if err := os.WriteFile("ARCHITECTURE.md", []byte(out), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
