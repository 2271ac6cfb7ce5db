package execution

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

// A deployer gets a Target only through CheckTarget (issue 32 b): this
// walks every non-test file of internal/ for a deployer.Item that is
// given a Target or Targets some other way, so a new path to a deployer
// (another preview, another kind of call) cannot forget the check.
//
//   - A deployer.Item composite literal may not set Target or Targets (nor
//     be unkeyed): Targeted and WithNamedTargets add them.
//   - An assignment to the Target or Targets field of an Item (x.Item.Target,
//     or a variable or parameter declared as a deployer.Item) is made only
//     in Targeted and WithNamedTargets.
//
// The deployers' own packages (internal/deployer/...: a deployer and the
// conformance suite that calls one directly) and test support are not
// walked: what a deployer does with the Item it got is past the check.
func TestItemTargets_OnlyThroughTheCheck(t *testing.T) {
	fset := token.NewFileSet()
	root := filepath.Join("..", "..")
	err := filepath.WalkDir(root, func(name string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, name)
		if e.IsDir() {
			if rel == "deployer" || rel == "testsupport" {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			return err
		}
		for _, v := range itemTargetViolations(fset, f) {
			t.Error(v)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// The walk finds what it is meant to find.
func TestItemTargets_CheckFindsBypasses(t *testing.T) {
	const src = `package p
func literal(t *api.Target) deployer.Item { return deployer.Item{ID: "x", Target: t} }
func named(m map[string]*api.Target) any { return &deployer.Item{Targets: m} }
func unkeyed() deployer.Item { return deployer.Item{"x"} }
func field(c Call, t *api.Target) { c.Item.Target = t }
func param(item deployer.Item, t *api.Target) { item.Target = t }
func local(t *api.Target) { item := deployer.Item{ID: "x"}; item.Targets = nil; var other deployer.Item; other.Target = t }
func fine(t *api.Target) { item := deployer.Item{ID: "x"}; item.Config = nil; other := something{}; other.Target = t }
func Targeted(item deployer.Item, t *api.Target) { item.Target = t }
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	got := itemTargetViolations(fset, f)
	if len(got) != 7 {
		t.Fatalf("want 7 violations (literal, named, unkeyed, field, param, two locals), got %d:\n%s", len(got), strings.Join(got, "\n"))
	}
	for _, v := range got {
		if strings.Contains(v, ": fine ") || strings.Contains(v, ": Targeted ") {
			t.Errorf("reported an allowed use: %s", v)
		}
	}
}

// targetSetters may assign an Item's Target or Targets.
var targetSetters = map[string]bool{"Targeted": true, "WithNamedTargets": true}

func itemTargetViolations(fset *token.FileSet, f *ast.File) []string {
	var out []string
	for _, decl := range f.Decls {
		fn, ok := decl.(*ast.FuncDecl)
		if !ok || fn.Body == nil {
			continue
		}
		items := itemVariables(fn)
		ast.Inspect(fn.Body, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.CompositeLit:
				if !isItemType(n.Type) {
					return true
				}
				for _, elt := range n.Elts {
					kv, ok := elt.(*ast.KeyValueExpr)
					if !ok {
						out = append(out, fset.Position(n.Pos()).String()+": "+fn.Name.Name+" makes an unkeyed deployer.Item")
						break
					}
					if k, ok := kv.Key.(*ast.Ident); ok && (k.Name == "Target" || k.Name == "Targets") {
						out = append(out, fset.Position(kv.Pos()).String()+": "+fn.Name.Name+" sets a deployer.Item's "+k.Name+
							" in a literal; give it through execution.Targeted / WithNamedTargets, which check it")
					}
				}
			case *ast.AssignStmt:
				for _, lhs := range n.Lhs {
					sel, ok := lhs.(*ast.SelectorExpr)
					if !ok || (sel.Sel.Name != "Target" && sel.Sel.Name != "Targets") || !isItemExpr(sel.X, items) || targetSetters[fn.Name.Name] {
						continue
					}
					out = append(out, fset.Position(sel.Pos()).String()+": "+fn.Name.Name+" assigns a deployer.Item's "+sel.Sel.Name+
						"; give it through execution.Targeted / WithNamedTargets, which check it")
				}
			}
			return true
		})
	}
	return out
}

// isItemType says whether e spells deployer.Item (or *deployer.Item).
func isItemType(e ast.Expr) bool {
	if star, ok := e.(*ast.StarExpr); ok {
		e = star.X
	}
	sel, ok := e.(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "Item" {
		return false
	}
	pkg, ok := sel.X.(*ast.Ident)
	return ok && pkg.Name == "deployer"
}

// isItemExpr says whether e is an Item: a field named Item (Call.Item,
// PreviewRequest.Item) or a variable of items.
func isItemExpr(e ast.Expr, items map[string]bool) bool {
	switch e := e.(type) {
	case *ast.SelectorExpr:
		return e.Sel.Name == "Item"
	case *ast.Ident:
		return items[e.Name]
	case *ast.ParenExpr:
		return isItemExpr(e.X, items)
	case *ast.StarExpr:
		return isItemExpr(e.X, items)
	}
	return false
}

// itemVariables are the names fn declares as a deployer.Item: parameters,
// results, var declarations and := of a deployer.Item literal.
func itemVariables(fn *ast.FuncDecl) map[string]bool {
	items := map[string]bool{}
	fields := func(fl *ast.FieldList) {
		if fl == nil {
			return
		}
		for _, f := range fl.List {
			if isItemType(f.Type) {
				for _, n := range f.Names {
					items[n.Name] = true
				}
			}
		}
	}
	fields(fn.Recv)
	fields(fn.Type.Params)
	fields(fn.Type.Results)
	ast.Inspect(fn.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.ValueSpec:
			if n.Type != nil && isItemType(n.Type) {
				for _, name := range n.Names {
					items[name.Name] = true
				}
			}
		case *ast.AssignStmt:
			for i, rhs := range n.Rhs {
				if u, ok := rhs.(*ast.UnaryExpr); ok {
					rhs = u.X
				}
				if lit, ok := rhs.(*ast.CompositeLit); ok && isItemType(lit.Type) && i < len(n.Lhs) {
					if id, ok := n.Lhs[i].(*ast.Ident); ok {
						items[id.Name] = true
					}
				}
			}
		case *ast.FuncLit:
			fields(n.Type.Params)
		}
		return true
	})
	return items
}
