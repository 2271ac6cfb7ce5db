package provider

import (
	"go/ast"
	"go/token"
	"testing"
)

// Trust in a kubeconfig is granted in one place per reason, and what an
// import fills from a cluster cannot be trusted by forgetting a check
// (issue 32 item 1, docs/guides/security.md): this walks every non-test
// file of the provider's packages for uses that bypass those places.
//
//   - pool.Trust and pool.AllowProviderKubeconfig, which let a kubeconfig
//     run programs or borrow the provider's, are called only by
//     Security.TrustTarget (the configuration's targets), ProviderData's
//     ProviderTargets (the provider block's own) and homeOf (the provider
//     block's external-deployer kubeconfig).
//   - TrustTarget is called only by TrustImports (the configuration),
//     TrustSnapshot (a snapshot an apply wrote) and the reconcile action
//     (its configuration's targets).
//   - A Provenance that trusts is made only by SnapshotProvenance, from
//     private state no import marked.
//   - Whatever records a snapshot in private state also says who wrote
//     it (MarkApplied, MarkFilledFromCluster), except refresh and destroy,
//     which write back what they read under the mark it had, and the
//     migration import, whose host-cluster targets trusted_host_targets
//     judges.
func TestTrust_OnlyThroughItsChokePoints(t *testing.T) {
	allowed := map[string]map[string]bool{
		"Trust":                   {"TrustTarget": true, "homeOf": true},
		"AllowProviderKubeconfig": {"TrustTarget": true, "ProviderTargets": true},
		"TrustTarget":             {"TrustImports": true, "TrustSnapshot": true, "Invoke": true},
	}
	writesBack := map[string]bool{"Read": true, "Delete": true, "importFromLandscaper": true}
	eachProviderFunc(t, func(fset *token.FileSet, name string, fn *ast.FuncDecl) {
		setsSnapshot, marks := false, false
		ast.Inspect(fn.Body, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.CallExpr:
				sel, ok := n.Fun.(*ast.SelectorExpr)
				if !ok {
					return true
				}
				if ok := allowed[sel.Sel.Name]; ok != nil && !ok[fn.Name.Name] {
					t.Errorf("%s: %s calls %s, which grants trust only from its choke points", fset.Position(n.Pos()), fn.Name.Name, sel.Sel.Name)
				}
				switch sel.Sel.Name {
				case "SetSnapshot":
					setsSnapshot = true
				case "MarkApplied", "MarkFilledFromCluster":
					marks = true
				}
			case *ast.CompositeLit:
				if typeName(n.Type) == "Provenance" && len(n.Elts) > 0 && fn.Name.Name != "SnapshotProvenance" {
					t.Errorf("%s: %s makes a trusting Provenance; only SnapshotProvenance may", fset.Position(n.Pos()), fn.Name.Name)
				}
			}
			return true
		})
		if setsSnapshot && !marks && !writesBack[fn.Name.Name] {
			t.Errorf("%s: %s records a snapshot without saying who wrote it (MarkApplied or MarkFilledFromCluster)", fset.Position(fn.Pos()), fn.Name.Name)
		}
	})
}

func typeName(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.Ident:
		return e.Name
	case *ast.SelectorExpr:
		return e.Sel.Name
	}
	return ""
}
