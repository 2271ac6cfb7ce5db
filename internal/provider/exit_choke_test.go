package provider

import (
	"go/ast"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// Everything the provider writes where a user or another tenant can read
// it leaves through the masking exit (shared/exit.go; issue 32 item 2,
// docs/guides/security.md "Where masking happens"): this walks every
// non-test file of the provider's packages for a write that bypasses it.
//
//   - State, plan and list-result attributes are set only by
//     Security.SetState, SetStateAttribute, SetPlan and SetResult: any other
//     `.Set(ctx, …)` / `.SetAttribute(ctx, …)` fails, except the identity
//     (namespace and name, which the user gave) and a provider function's
//     result. The inventory's kept attributes are encoded from a state
//     SetState fills.
//   - Private state is written only by Security.SetPrivate, except the two
//     keys that hold nothing anyone wrote: the config_hash key (random
//     bytes) and the instance ID (a UUID).
//   - Logs go through the Security (tflogLogger, Security.Warn): no other
//     tflog call.
//   - A diagnostic made directly (diags.AddError, …) carries constant text
//     only; anything computed goes through shared.AddError/AddWarning.
//   - The reconcile action's progress messages are scrubbed.
//   - A job that keeps attributes in the inventory (Runner.Keep) masks
//     what it keeps there (Runner.Mask = Security.MaskKept).
func TestExits_OnlyThroughTheMaskingExit(t *testing.T) {
	exitFile := filepath.Join("shared", "exit.go")
	// allowed: function → why it may write past the exit.
	allowed := map[string]string{
		"setInstallationIdentity": "identity: namespace and name, from the import ID or the configuration",
		"setTargetIdentity":       "identity: the target's name, from the configuration",
		"Store":                   "config_hash key: random bytes, nothing anyone wrote",
		"recordInstance":          "the instance ID: a UUID the provider drew",
		// The target() function's result is built from its arguments
		// alone, which Terraform marks sensitive as the caller's were.
		"Run": "a provider function's result",
	}
	diagSinks := map[string]bool{"AddError": true, "AddAttributeError": true, "AddWarning": true, "AddAttributeWarning": true}
	checked := map[string]int{}
	eachProviderFunc(t, func(fset *token.FileSet, name string, fn *ast.FuncDecl) {
		keeps, masks := false, false
		ast.Inspect(fn.Body, func(n ast.Node) bool {
			if as, ok := n.(*ast.AssignStmt); ok {
				for _, l := range as.Lhs {
					if s, ok := l.(*ast.SelectorExpr); ok {
						keeps = keeps || s.Sel.Name == "Keep"
						masks = masks || s.Sel.Name == "Mask"
					}
				}
			}
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			pos := fset.Position(call.Pos())
			fail := func(what string) {
				if _, ok := allowed[fn.Name.Name]; ok || name == exitFile {
					return
				}
				t.Errorf("%s (%s): %s bypasses the masking exit (shared/exit.go)", pos, fn.Name.Name, what)
			}
			switch m := sel.Sel.Name; {
			case (m == "Set" || m == "SetAttribute") && firstArgIs(call, "ctx"):
				checked["attribute"]++
				fail("setting attributes with " + m)
			case m == "SetKey":
				checked["private"]++
				fail("writing private state with SetKey")
			case isIdent(sel.X, "tflog"):
				checked["log"]++
				if name != filepath.Join("shared", "tflog_logger.go") {
					t.Errorf("%s: tflog.%s bypasses the masking exit; use Security.Warn or the engine's logger", pos, m)
				}
			case diagSinks[m] && !isIdent(sel.X, "shared"):
				checked["diagnostic"]++
				for _, a := range call.Args[min(len(call.Args), 1):] {
					if !constantText(a) {
						if name != filepath.Join("shared", "input_error.go") {
							t.Errorf("%s: %s with computed text bypasses the masking exit; use shared.%s", pos, m, strings.TrimPrefix(m, "Attribute"))
						}
						break
					}
				}
			case m == "SendProgress":
				checked["progress"]++
				if !scrubbed(call) {
					t.Errorf("%s: a progress message not scrubbed (Security.Scrub)", pos)
				}
			}
			return true
		})
		if keeps {
			checked["inventory"]++
			if !masks {
				t.Errorf("%s (%s): a runner keeps attributes in the inventory (Keep) without Mask = Security.MaskKept", fset.Position(fn.Pos()), fn.Name.Name)
			}
		}
	})
	for _, kind := range []string{"attribute", "private", "log", "diagnostic", "progress", "inventory"} {
		if checked[kind] == 0 {
			t.Errorf("no %s exit found: the walk reads nothing of that kind", kind)
		}
	}
}

func isIdent(e ast.Expr, name string) bool {
	id, ok := e.(*ast.Ident)
	return ok && id.Name == name
}

func firstArgIs(call *ast.CallExpr, name string) bool {
	return len(call.Args) > 0 && isIdent(call.Args[0], name)
}

// constantText says whether e is text fixed in the source: string
// literals, constants named in capitals or a package's, path
// expressions (diagnostic paths), and concatenations of those.
func constantText(e ast.Expr) bool {
	switch x := e.(type) {
	case *ast.BasicLit:
		return true
	case *ast.BinaryExpr:
		return x.Op == token.ADD && constantText(x.X) && constantText(x.Y)
	case *ast.ParenExpr:
		return constantText(x.X)
	case *ast.CallExpr:
		if s, ok := x.Fun.(*ast.SelectorExpr); ok && isIdent(s.X, "path") {
			return true // path.Root("…"): where, not what
		}
	}
	return false
}

// scrubbed says whether a SendProgress call's message is a Scrub result.
func scrubbed(call *ast.CallExpr) bool {
	found := false
	ast.Inspect(call, func(n ast.Node) bool {
		if c, ok := n.(*ast.CallExpr); ok {
			if s, ok := c.Fun.(*ast.SelectorExpr); ok && s.Sel.Name == "Scrub" {
				found = true
			}
		}
		return !found
	})
	return found
}
