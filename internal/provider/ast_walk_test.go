package provider

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

// eachProviderFunc calls visit for every function with a body in the
// provider's packages (this directory and below, tests left out): the
// walk the guard tests (trust_choke_test.go, exit_choke_test.go) share.
func eachProviderFunc(t *testing.T, visit func(fset *token.FileSet, file string, fn *ast.FuncDecl)) {
	t.Helper()
	fset := token.NewFileSet()
	err := filepath.WalkDir(".", func(name string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() || !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			return err
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			return err
		}
		for _, decl := range f.Decls {
			if fn, ok := decl.(*ast.FuncDecl); ok && fn.Body != nil {
				visit(fset, name, fn)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
