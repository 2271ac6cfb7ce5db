package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// goNames are the names the module's Go code declares: package names,
// top-level declarations, methods, struct fields and interface methods,
// and the JSON names of struct fields (Landscaper's field names, as
// `importDataMappings`, are quoted in ARCHITECTURE.md too). files are the
// module's files by slash path; foreign are the names under which it
// imports packages of other modules.
func goNames(t *testing.T, root string) (names, foreign map[string]bool, files []string) {
	t.Helper()
	names, foreign = map[string]bool{}, map[string]bool{}
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if rel != "." && (strings.HasPrefix(d.Name(), ".") || d.Name() == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		files = append(files, rel)
		if !strings.HasSuffix(p, ".go") || strings.Contains(rel, "/testdata/") {
			return nil
		}
		f, err := parser.ParseFile(fset, p, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		names[f.Name.Name] = true
		for _, imp := range f.Imports {
			ip, err := strconv.Unquote(imp.Path.Value)
			if err != nil || strings.HasPrefix(ip, "github.com/landscaper-terraform/") {
				continue // ours: its names are declared here
			}
			name := path.Base(ip)
			if imp.Name != nil {
				name = imp.Name.Name
			}
			foreign[name] = true
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.BasicLit:
				// Reason and phase names Landscaper spells as strings.
				if v, err := strconv.Unquote(n.Value); n.Kind == token.STRING && err == nil && goIdent.MatchString(v) {
					names[v] = true
				}
			case *ast.FuncDecl:
				names[n.Name.Name] = true
			case *ast.TypeSpec:
				names[n.Name.Name] = true
			case *ast.ValueSpec:
				for _, id := range n.Names {
					names[id.Name] = true
				}
			case *ast.Field:
				for _, id := range n.Names {
					names[id.Name] = true
				}
				if n.Tag != nil {
					if tag, err := strconv.Unquote(n.Tag.Value); err == nil {
						if j, _, _ := strings.Cut(reflect.StructTag(tag).Get("json"), ","); j != "" {
							names[j] = true
						}
					}
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return names, foreign, files
}

var (
	codeSpan = regexp.MustCompile("`([^`\n]+)`")
	// goIdent is a Go name, qualified or not, as a call or literal may
	// follow it: `Engine.Apply`, `deployer.Item{…}`, `AppliedTarget()`.
	goIdent  = regexp.MustCompile(`^([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*)(?:\(.*\)|\{.*\})?$`)
	filePath = regexp.MustCompile(`^[A-Za-z0-9_.\-/]+\.(go|md|yml|yaml|sh|json|tf|mod)$|^(internal|tools|docs|examples|templates)/[A-Za-z0-9_.\-/]*$`)
)

// spansOf are the inline code spans of doc, outside fenced blocks.
func spansOf(doc string) []string {
	var out []string
	fenced := false
	for _, line := range strings.Split(doc, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			fenced = !fenced
			continue
		}
		if fenced {
			continue
		}
		for _, m := range codeSpan.FindAllStringSubmatch(line, -1) {
			out = append(out, m[1])
		}
	}
	return out
}

// TestArchitectureNamesExist proves every file path and Go name that
// ARCHITECTURE.md quotes in backticks exists: a rename or a move that
// leaves the document behind fails here. A path may be given from the
// root or from any folder (`execution/call.go`); a Go name counts when
// each of its dotted parts is declared somewhere in the module. A single
// lower-case word or a snake_case name is taken for a Terraform attribute
// or a word of the CLI, an all-capital one for HTTP's, not for Go, and
// left alone. The names of imported packages count, and so do strings of
// the code that are names (Landscaper's reasons and phases).
func TestArchitectureNamesExist(t *testing.T) {
	root := "../.."
	doc, err := os.ReadFile(filepath.Join(root, "ARCHITECTURE.md"))
	if err != nil {
		t.Fatal(err)
	}
	names, foreign, files := goNames(t, root)
	fileExists := func(p string) bool {
		p = strings.TrimPrefix(strings.TrimSuffix(p, "/"), "./")
		for _, f := range files {
			if f == p || strings.HasSuffix(f, "/"+p) || strings.HasPrefix(f, p+"/") || strings.Contains(f, "/"+p+"/") {
				return true
			}
		}
		return false
	}
	checked := 0
	for _, span := range spansOf(string(doc)) {
		switch {
		case filePath.MatchString(span) && (strings.Contains(span, "/") || strings.HasSuffix(span, ".go") || strings.HasSuffix(span, ".md")):
			checked++
			if !fileExists(span) {
				t.Errorf("ARCHITECTURE.md names `%s`, a path no file of the module has", span)
			}
		case goIdent.MatchString(span):
			ident := goIdent.FindStringSubmatch(span)[1]
			if strings.Contains(ident, "_") || strings.ToUpper(ident) == ident ||
				!strings.Contains(ident, ".") && strings.ToLower(ident) == ident {
				continue // an attribute, a word of the CLI or of HTTP
			}
			checked++
			parts := strings.Split(ident, ".")
			if len(parts) > 1 && foreign[parts[0]] && !names[parts[0]] {
				continue // another module's name: providerserver.Serve
			}
			for _, part := range parts {
				if !names[part] {
					t.Errorf("ARCHITECTURE.md names `%s`, but no Go code of the module declares %s", span, part)
					break
				}
			}
		}
	}
	if checked < 50 {
		t.Errorf("only %d names and paths checked: the span parser lost the document", checked)
	}
}
