package hostaccess

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint"
)

const digestBlueprint = `apiVersion: landscaper.gardener.cloud/v1alpha1
kind: Blueprint
`

func digestOf(t *testing.T, dir string) (string, error) {
	t.Helper()
	bp, err := blueprint.LoadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	return BlueprintDigest(bp, nil)
}

func write(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// A blueprint kept in the module's own directory: what Terraform writes
// there (state, .terraform/, the lock file) does not change the digest;
// a file of the blueprint does.
func TestBlueprintDigest_IgnoresTerraformFiles(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "blueprint.yaml"), digestBlueprint)
	write(t, filepath.Join(dir, "main.tf"), "# module\n")
	before, err := digestOf(t, dir)
	if err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(dir, "terraform.tfstate"), `{"serial": 1}`)
	write(t, filepath.Join(dir, "terraform.tfstate.backup"), `{"serial": 0}`)
	write(t, filepath.Join(dir, "terraform.tfstate.d", "dev", "terraform.tfstate"), `{}`)
	write(t, filepath.Join(dir, ".terraform", "providers", "x"), "binary")
	write(t, filepath.Join(dir, ".terraform.lock.hcl"), "# lock")
	if after, err := digestOf(t, dir); err != nil || after != before {
		t.Fatalf("Terraform's files changed the digest: %s -> %s (%v)", before, after, err)
	}
	write(t, filepath.Join(dir, "main.tf"), "# module, edited\n")
	if after, err := digestOf(t, dir); err != nil || after == before {
		t.Fatalf("an edited blueprint file did not change the digest (%v)", err)
	}
}

// A symbolic link to a directory is refused with a message that says so,
// instead of failing every plan with "is a directory".
func TestBlueprintDigest_SymlinkedDirectory(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "blueprint.yaml"), digestBlueprint)
	write(t, filepath.Join(dir, "real", "values.yaml"), "a: 1\n")
	if err := os.Symlink("real", filepath.Join(dir, "linked")); err != nil {
		t.Fatal(err)
	}
	_, err := digestOf(t, dir)
	if err == nil || !strings.Contains(err.Error(), "linked is a symbolic link to a directory") {
		t.Fatalf("error %v, want one naming the symlinked directory", err)
	}
}
