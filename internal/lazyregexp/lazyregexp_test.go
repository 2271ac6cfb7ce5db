package lazyregexp

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

func TestNew_CompilesOnceOnFirstUse(t *testing.T) {
	re := New(`^a+b$`)
	first := re()
	if !first.MatchString("aab") || first.MatchString("ba") {
		t.Fatalf("pattern does not match as compiled: %v", first)
	}
	if re() != first {
		t.Error("a second call compiled the pattern again")
	}
}

func TestNew_BadPatternPanicsOnUseNotOnDeclaration(t *testing.T) {
	re := New(`(`) // must not panic here
	defer func() {
		if recover() == nil {
			t.Error("using a bad pattern did not panic")
		}
	}()
	re()
}

// TestNoPatternCompiledAtInit walks the provider's packages for a
// package-level regexp.MustCompile (or Compile) outside tests and test
// support: such a pattern compiles at every process start. Declare it
// with New instead.
func TestNoPatternCompiledAtInit(t *testing.T) {
	root := ".." // internal/: what the provider binary links (tools/ are commands of their own)
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch d.Name() {
			case ".git", ".tools", "testdata", "testsupport", "vendor":
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), p, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		for _, decl := range f.Decls {
			gen, ok := decl.(*ast.GenDecl)
			if !ok || gen.Tok != token.VAR {
				continue
			}
			ast.Inspect(gen, func(n ast.Node) bool {
				if _, ok := n.(*ast.FuncLit); ok {
					return false // runs when called, not at init
				}
				call, ok := n.(*ast.CallExpr)
				if !ok {
					return true
				}
				if sel, ok := call.Fun.(*ast.SelectorExpr); ok {
					if pkg, ok := sel.X.(*ast.Ident); ok && pkg.Name == "regexp" && strings.HasSuffix(sel.Sel.Name, "Compile") {
						t.Errorf("%s: package-level regexp.%s compiles at every start; use lazyregexp.New", p, sel.Sel.Name)
					}
				}
				return true
			})
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
