// Package tfcli points terraform-plugin-testing at the Terraform or OpenTofu
// CLI that `make tools` built, so acceptance tests never download a CLI and
// run against both. Call Setup from TestMain before m.Run:
//
//	func TestMain(m *testing.M) {
//		if err := tfcli.Setup(); err != nil { fmt.Fprintln(os.Stderr, err); os.Exit(1) }
//		os.Exit(m.Run())
//	}
//
// LANDSCAPER_TEST_CLI selects the CLI: "terraform" (Terraform 1.5, the
// default), "terraform-current" (a current Terraform, built from its module
// zip by tools/testenv/terraform/build.sh) or "tofu".
package tfcli

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/testsupport/checkout"
)

// SelectEnv names the environment variable that selects the CLI.
const SelectEnv = "LANDSCAPER_TEST_CLI"

// The CLIs, as named in .tools/bin and accepted in SelectEnv.
const (
	Terraform        = "terraform"
	TerraformCurrent = "terraform-current"
	OpenTofu         = "tofu"
)

// Name returns the selected CLI: Terraform or OpenTofu. An unknown value is
// returned as given; Setup rejects it.
func Name() string {
	if v := os.Getenv(SelectEnv); v != "" {
		return v
	}
	return Terraform
}

// Setup sets the environment terraform-plugin-testing reads for the selected
// CLI, or says why it cannot: an unknown CLI, or a CLI that `make tools` has
// not built.
func Setup() error {
	root, err := checkout.Root()
	if err != nil {
		return fmt.Errorf("tfcli: %w", err)
	}
	return setup(root, Name())
}

func setup(root, name string) error {
	if name != Terraform && name != TerraformCurrent && name != OpenTofu {
		return fmt.Errorf("tfcli: %s=%q: want %q, %q or %q", SelectEnv, name, Terraform, TerraformCurrent, OpenTofu)
	}
	paths, err := checkout.Tools(root, name)
	if err != nil {
		return fmt.Errorf("tfcli: the %s CLI for acceptance tests: %w", name, err)
	}
	env := map[string]string{"TF_ACC_TERRAFORM_PATH": paths[0]}

	// An empty CLI config keeps a developer's ~/.terraformrc (dev_overrides,
	// mirrors) out of the tests, and keeps OpenTofu from warning about a
	// missing one, which breaks the harness's parsing of `tofu version`.
	cliConfig, err := emptyCLIConfig(root)
	if err != nil {
		return err
	}
	env["TF_CLI_CONFIG_FILE"] = cliConfig
	if name == OpenTofu {
		// The harness otherwise names the provider registry.terraform.io/...,
		// which OpenTofu treats as a legacy namespace and refuses.
		env["TF_ACC_PROVIDER_HOST"] = "registry.opentofu.org"
	}
	for k, v := range env {
		if err := os.Setenv(k, v); err != nil {
			return fmt.Errorf("tfcli: setting %s: %w", k, err)
		}
	}
	return nil
}

// emptyCLIConfig returns an empty file in the ignored tools folder, created on first use.
func emptyCLIConfig(root string) (string, error) {
	path := filepath.Join(filepath.Dir(checkout.ToolsDir(root)), "empty.tfrc")
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o644)
	if err != nil {
		return "", fmt.Errorf("tfcli: creating the empty CLI config %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return "", fmt.Errorf("tfcli: creating the empty CLI config %s: %w", path, err)
	}
	return path, nil
}

// missingBackends are the state backends the current Terraform is built
// without: nested Go modules its module zip leaves out
// (tools/testenv/terraform/build.sh).
var missingBackends = map[string]bool{
	"azurerm": true, "consul": true, "cos": true, "gcs": true, "kubernetes": true,
	"oci": true, "oss": true, "pg": true, "s3": true,
}

// LacksBackend says whether the selected CLI was built without the named
// state backend, so a test of that backend skips with this reason.
func LacksBackend(backend string) (bool, string) {
	if Name() == TerraformCurrent && missingBackends[backend] {
		return true, fmt.Sprintf("the %s CLI is built from Terraform's module zip without the %q backend (README, Which Terraform)", TerraformCurrent, backend)
	}
	return false, ""
}
