package checkout

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func writeFile(t *testing.T, path, content string, mode os.FileMode) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), mode); err != nil {
		t.Fatal(err)
	}
}

// TestRootFrom_PassesOverNestedModule proves that tools/ modules inside the checkout do not end the search.
func TestRootFrom_PassesOverNestedModule(t *testing.T) {
	root := t.TempDir()
	writeFile(t, filepath.Join(root, "go.mod"), "module "+ModulePath+"\n\ngo 1.26\n", 0o644)
	writeFile(t, filepath.Join(root, "tools", "x", "go.mod"), "module "+ModulePath+"/tools/x\n", 0o644)
	got, err := RootFrom(filepath.Join(root, "tools", "x"))
	if err != nil || got != root {
		t.Errorf("RootFrom(tools/x) = %q, %v; want %q", got, err, root)
	}
}

// TestRootFrom_OutsideCheckout proves that a folder outside any checkout is an error, not a guess.
func TestRootFrom_OutsideCheckout(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "go.mod"), "module example.com/other\n", 0o644)
	if got, err := RootFrom(dir); err == nil {
		t.Errorf("RootFrom(other module) = %q, want an error", got)
	}
}

// TestRoot_ThisCheckout proves that tests find the checkout they run in.
func TestRoot_ThisCheckout(t *testing.T) {
	root, err := Root()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "internal", "testsupport", "checkout", "checkout.go")); err != nil {
		t.Errorf("Root() = %q, which does not hold this package: %v", root, err)
	}
}

// TestTools_Missing proves that every missing tool is named along with `make tools`, and
// that a non-executable file counts as missing.
func TestTools_Missing(t *testing.T) {
	root := t.TempDir()
	writeFile(t, filepath.Join(ToolsDir(root), "etcd"), "#!/bin/sh\n", 0o755)
	writeFile(t, filepath.Join(ToolsDir(root), "kwok"), "not executable", 0o644)
	_, err := Tools(root, "etcd", "kwok", "kube-apiserver")
	if err == nil {
		t.Fatal("Tools with two missing = nil error")
	}
	for _, want := range []string{"kwok, kube-apiserver", "make tools"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not contain %q", err, want)
		}
	}
	paths, err := Tools(root, "etcd")
	if err != nil || paths[0] != filepath.Join(ToolsDir(root), "etcd") {
		t.Errorf("Tools(etcd) = %v, %v", paths, err)
	}
}
