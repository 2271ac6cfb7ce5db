package inventory

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// claimFields are the fields of a deploy item (snapshot.DeployItem,
// deployer.Item) through which data read from a cluster could reach a
// deployer as if state had recorded it.
var claimFields = map[string]bool{"ProviderStatus": true, "Config": true, "Rebuilt": true}

// claimAllowed are the functions of packages inventory and instance that
// may write those fields or decode a snapshot, each with the reason.
var claimAllowed = map[string]string{
	"inventory.Claim":         "the claim functions (claim.go)",
	"inventory.ClaimAll":      "the claim functions (claim.go)",
	"inventory.claimCall":     "the claim functions (claim.go)",
	"inventory.DecodeClaimed": "the claim functions (claim.go)",
	"inventory.openRead":      "opens the sealed configurations of items read from a record (seal.go): still a RecordedItem, which enters a snapshot only through Claim",
	"instance.Decode":         "decodes Terraform's private state, which is trusted",
	"instance.Live":           "a read of the live objects for the plan text: grants nothing (no Rebuilt needed to change nothing)",
	"instance.MaskWriteOnly":  "replaces write-only values by a mask in a job's snapshot: takes nothing from a cluster, grants nothing",
	"instance.MaskOutcomes":   "masks registered values in a copy of a job's snapshot the inventory keeps: takes nothing from a cluster, grants nothing",
}

// A deploy item read from a cluster grants nothing only if every way it
// enters a snapshot or a deployer call marks it rebuilt (claim.go). The
// imports of inventory data by an import once bypassed that (item 2 of
// issue 32); this walks both packages and fails on any write of
// ProviderStatus, Config or Rebuilt, any deploy-item literal setting
// them, and any snapshot.Unmarshal, outside the claim functions — other
// than clearing a field (= nil).
func TestClaims_OnlyThroughClaimFunctions(t *testing.T) {
	checked := 0
	for pkg, dir := range map[string]string{"inventory": ".", "instance": "../instance"} {
		files, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range files {
			if strings.HasSuffix(name, "_test.go") {
				continue
			}
			src, err := os.ReadFile(name)
			if err != nil {
				t.Fatal(err)
			}
			for _, v := range claimViolations(t, pkg, name, src) {
				t.Error(v)
			}
			checked++
		}
	}
	if checked < 20 {
		t.Fatalf("checked only %d files: wrong directory?", checked)
	}
}

// The walk finds the bypass issue 32 reported (Runner.Imported copying a
// recorded provider status without marking it) and a decoding of a kept
// snapshot with snapshot.Unmarshal; it accepts the claim functions and
// clearing a field.
func TestClaims_WalkFindsBypasses(t *testing.T) {
	src := `package instance
func assemble() {
	it.ProviderStatus = rec.ProviderStatus
	it.Config = nil
	s, _ := snapshot.Unmarshal(k.Snapshot)
	_ = &snapshot.DeployItem{ID: "x", ProviderStatus: st}
	_ = deployer.Item{ID: "x", Config: c}
	inventory.Claim(it, rec.ProviderStatus, rec.Config)
}
func Decode() { snapshot.Unmarshal(b) }
`
	got := claimViolations(t, "instance", "keep.go", []byte(src))
	if len(got) != 4 {
		t.Fatalf("violations = %d, want 4 (status write, Unmarshal, two literals):\n%s", len(got), strings.Join(got, "\n"))
	}
}

func claimViolations(t *testing.T, pkg, name string, src []byte) []string {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, name, src, 0)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, decl := range f.Decls {
		fn, ok := decl.(*ast.FuncDecl)
		if !ok || claimAllowed[pkg+"."+fn.Name.Name] != "" {
			continue
		}
		report := func(n ast.Node, what string) {
			out = append(out, fset.Position(n.Pos()).String()+": "+fn.Name.Name+" "+what+" outside the claim functions (inventory/claim.go)")
		}
		ast.Inspect(fn, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.AssignStmt:
				for i, lhs := range n.Lhs {
					sel, ok := lhs.(*ast.SelectorExpr)
					if !ok || !claimFields[sel.Sel.Name] {
						continue
					}
					if len(n.Rhs) == len(n.Lhs) {
						if id, ok := n.Rhs[i].(*ast.Ident); ok && id.Name == "nil" {
							continue
						}
					}
					report(n, "writes "+sel.Sel.Name)
				}
			case *ast.CompositeLit:
				if typ := selectorName(n.Type); typ == "snapshot.DeployItem" || typ == "deployer.Item" {
					for _, e := range n.Elts {
						if kv, ok := e.(*ast.KeyValueExpr); ok {
							if key, ok := kv.Key.(*ast.Ident); ok && claimFields[key.Name] {
								report(n, "sets "+key.Name+" in a "+typ)
							}
						}
					}
				}
			case *ast.CallExpr:
				if selectorName(n.Fun) == "snapshot.Unmarshal" {
					report(n, "decodes a snapshot")
				}
			}
			return true
		})
	}
	return out
}

// selectorName is "pkg.Name" of a qualified identifier, else "".
func selectorName(e ast.Expr) string {
	sel, ok := e.(*ast.SelectorExpr)
	if !ok {
		return ""
	}
	x, ok := sel.X.(*ast.Ident)
	if !ok {
		return ""
	}
	return x.Name + "." + sel.Sel.Name
}
