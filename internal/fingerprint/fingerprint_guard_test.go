package fingerprint

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// guardedPackages make stored fingerprints of configuration data (state,
// private state, the inventory, plans), relative to internal/.
var guardedPackages = []string{"engine", "instance", "preview", "deployer", "provider"}

// hashPackages are the imports whose use makes a hash.
var hashPackages = map[string]bool{
	"crypto/sha256": true, "crypto/sha512": true, "crypto/sha1": true, "crypto/md5": true,
	"crypto/hmac": true, "hash/fnv": true, "hash/crc32": true, "hash/crc64": true, "hash/maphash": true,
}

// sizes are the hash packages' constants, which hash nothing.
var sizes = map[string]bool{"Size": true, "Size224": true, "Size256": true, "Size384": true, "BlockSize": true}

// allowed are the functions (file relative to internal/, then the
// function, methods as Type.Method) that hash something else than
// configuration data, or do not store the result, with why.
var allowed = map[string]string{
	"instance/snapshot.go:snapshotCache.put":                                   "the in-memory key of a decoded snapshot; never stored",
	"instance/snapshot.go:snapshotCache.take":                                  "the in-memory key of a decoded snapshot; never stored",
	"instance/preview.go:Destination":                                          "names a target's cluster for recorded capabilities; targets are kept in the snapshot as they are, so their hash tells nothing it does not",
	"preview/canonical.go:summary":                                             "digest of an object's text after masking: every registered secret, write-only values included, is a marker there already",
	"preview/shape.go:cutAfter":                                                "where a masked text is cut into chunks; 5 bits of a line's hash decide a cut, nothing of it is kept",
	"deployer/ownership.go:OwnerValue":                                         "the owner label is a hash of the deploy item's ID, not of its configuration",
	"deployer/helm/chart.go:loadChartSource":                                   "digest of a chart archive, which the plan pins",
	"deployer/helm/chart.go:localChart":                                        "digest of a local chart's files, which the plan pins",
	"deployer/helm/chart_pins.go:Deployer.Resolve":                             "digest of a fetched chart archive, which the plan pins",
	"provider/shared/installation_reconcile_key.go:ConfigHashKey.ReconcileKey": "derives the reconcile key from the config_hash key: no data is hashed",
}

// TestFingerprints_OnlyHere walks the packages that store fingerprints of
// configuration data for any use of a hash package outside package
// fingerprint and the allowed functions: a hash made elsewhere would be of
// the real configuration, so a short write-only value could be guessed
// from it offline. Hash through fingerprint (Value, Encoded, Keyed) with
// the item's or installation's write-only forms, or add the function to
// allowed with the reason it stores nothing of configuration data.
func TestFingerprints_OnlyHere(t *testing.T) {
	used := map[string]bool{}
	for _, pkg := range guardedPackages {
		root := filepath.Join("..", pkg)
		err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() {
				if d.Name() == "testdata" {
					return filepath.SkipDir
				}
				return nil
			}
			if !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
				return nil
			}
			rel, _ := filepath.Rel("..", p)
			for _, fn := range hashUses(t, p) {
				key := filepath.ToSlash(rel) + ":" + fn
				if _, ok := allowed[key]; ok {
					used[key] = true
					continue
				}
				t.Errorf("%s hashes outside package fingerprint: make stored fingerprints of configuration data with fingerprint.Value, Encoded or Keyed and the write-only forms, or allow the function with its reason", key)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	var stale []string
	for key := range allowed {
		if !used[key] {
			stale = append(stale, key)
		}
	}
	sort.Strings(stale)
	for _, key := range stale {
		t.Errorf("allowed %s hashes nothing any more: remove it from the list", key)
	}
}

// hashUses returns the functions of the file at p (Type.Method for a
// method, "" at package level) that use a hash package beyond its size
// constants, once per use.
func hashUses(t *testing.T, p string) []string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), p, nil, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, imp := range f.Imports {
		path, _ := strconv.Unquote(imp.Path.Value)
		if !hashPackages[path] {
			continue
		}
		name := path[strings.LastIndex(path, "/")+1:]
		if imp.Name != nil {
			name = imp.Name.Name
		}
		names[name] = true
	}
	if len(names) == 0 {
		return nil
	}
	var out []string
	inspect := func(fn string, n ast.Node) {
		ast.Inspect(n, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			if x, ok := sel.X.(*ast.Ident); ok && names[x.Name] && !sizes[sel.Sel.Name] {
				out = append(out, fn)
			}
			return true
		})
	}
	for _, decl := range f.Decls {
		fd, ok := decl.(*ast.FuncDecl)
		if !ok {
			inspect("", decl)
			continue
		}
		name := fd.Name.Name
		if fd.Recv != nil && len(fd.Recv.List) > 0 {
			name = recvName(fd.Recv.List[0].Type) + "." + name
		}
		inspect(name, fd)
	}
	return out
}

func recvName(e ast.Expr) string {
	switch x := e.(type) {
	case *ast.StarExpr:
		return recvName(x.X)
	case *ast.IndexExpr:
		return recvName(x.X)
	case *ast.Ident:
		return x.Name
	}
	return "?"
}

// The walk finds a hash where one is made: a call, a hash constructor
// passed as a value, and a renamed import; size constants are no use.
func TestHashUses_FindsEachForm(t *testing.T) {
	dir := t.TempDir()
	src := `package x

import (
	"crypto/hmac"
	h "crypto/sha256"
)

var size = h.Size

func sum(b []byte) [32]byte { return h.Sum256(b) }

type K []byte

func (k *K) mac() []byte { return hmac.New(h.New, *k).Sum(nil) }
`
	p := filepath.Join(dir, "x.go")
	if err := writeFile(p, src); err != nil {
		t.Fatal(err)
	}
	got := strings.Join(hashUses(t, p), ",")
	if want := "sum,K.mac,K.mac"; got != want {
		t.Errorf("hashUses = %s, want %s", got, want)
	}
}

func writeFile(p, s string) error { return os.WriteFile(p, []byte(s), 0o600) }
