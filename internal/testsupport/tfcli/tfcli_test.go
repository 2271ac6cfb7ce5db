package tfcli

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/testsupport/checkout"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/testsupport/testgate"
)

// fakeCheckout returns a checkout folder whose .tools/bin holds the named executables.
func fakeCheckout(t *testing.T, tools ...string) string {
	t.Helper()
	root := t.TempDir()
	bin := checkout.ToolsDir(root)
	if err := os.MkdirAll(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, tool := range tools {
		if err := os.WriteFile(filepath.Join(bin, tool), []byte("#!/bin/sh\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// isolateEnv lets setup change the variables it owns and restores them after the test.
func isolateEnv(t *testing.T) {
	for _, k := range []string{"TF_ACC_TERRAFORM_PATH", "TF_CLI_CONFIG_FILE", "TF_ACC_PROVIDER_HOST"} {
		t.Setenv(k, "")
	}
}

// TestSetup_Terraform proves that the default CLI is the built terraform with an empty CLI config.
func TestSetup_Terraform(t *testing.T) {
	isolateEnv(t)
	root := fakeCheckout(t, "terraform")
	if err := setup(root, Terraform); err != nil {
		t.Fatal(err)
	}
	if got, want := os.Getenv("TF_ACC_TERRAFORM_PATH"), filepath.Join(root, ".tools", "bin", "terraform"); got != want {
		t.Errorf("TF_ACC_TERRAFORM_PATH = %q, want %q", got, want)
	}
	assertEmptyFile(t, os.Getenv("TF_CLI_CONFIG_FILE"))
	if got := os.Getenv("TF_ACC_PROVIDER_HOST"); got != "" {
		t.Errorf("TF_ACC_PROVIDER_HOST = %q for terraform, want it unset", got)
	}
}

// TestSetup_TerraformCurrent proves that the current Terraform is its own
// link in the tools folder, beside Terraform 1.5, with Terraform's settings.
func TestSetup_TerraformCurrent(t *testing.T) {
	isolateEnv(t)
	root := fakeCheckout(t, "terraform", "terraform-current")
	if err := setup(root, TerraformCurrent); err != nil {
		t.Fatal(err)
	}
	if got, want := os.Getenv("TF_ACC_TERRAFORM_PATH"), filepath.Join(root, ".tools", "bin", "terraform-current"); got != want {
		t.Errorf("TF_ACC_TERRAFORM_PATH = %q, want %q", got, want)
	}
	if got := os.Getenv("TF_ACC_PROVIDER_HOST"); got != "" {
		t.Errorf("TF_ACC_PROVIDER_HOST = %q for terraform-current, want it unset", got)
	}
}

// TestSetup_OpenTofu proves that tofu gets its registry host and an existing empty CLI config.
func TestSetup_OpenTofu(t *testing.T) {
	isolateEnv(t)
	root := fakeCheckout(t, "tofu")
	if err := setup(root, OpenTofu); err != nil {
		t.Fatal(err)
	}
	if got, want := os.Getenv("TF_ACC_TERRAFORM_PATH"), filepath.Join(root, ".tools", "bin", "tofu"); got != want {
		t.Errorf("TF_ACC_TERRAFORM_PATH = %q, want %q", got, want)
	}
	if got := os.Getenv("TF_ACC_PROVIDER_HOST"); got != "registry.opentofu.org" {
		t.Errorf("TF_ACC_PROVIDER_HOST = %q, want registry.opentofu.org", got)
	}
	assertEmptyFile(t, os.Getenv("TF_CLI_CONFIG_FILE"))
}

// TestSetup_MissingCLI proves that a CLI `make tools` has not built is an error that says so.
func TestSetup_MissingCLI(t *testing.T) {
	isolateEnv(t)
	err := setup(fakeCheckout(t, "terraform"), OpenTofu)
	if err == nil || !strings.Contains(err.Error(), "make tools") || !strings.Contains(err.Error(), "tofu") {
		t.Errorf("setup without tofu = %v, want an error naming tofu and `make tools`", err)
	}
}

// TestSetup_UnknownCLI proves that a misspelt LANDSCAPER_TEST_CLI fails instead of falling back.
func TestSetup_UnknownCLI(t *testing.T) {
	isolateEnv(t)
	err := setup(fakeCheckout(t, "terraform", "terraform-current", "tofu"), "opentofu")
	if err == nil || !strings.Contains(err.Error(), SelectEnv) {
		t.Errorf("setup(opentofu) = %v, want an error naming %s", err, SelectEnv)
	}
}

// TestName_DefaultsToTerraform proves the default selection.
func TestName_DefaultsToTerraform(t *testing.T) {
	t.Setenv(SelectEnv, "")
	if got := Name(); got != Terraform {
		t.Errorf("Name() = %q, want %q", got, Terraform)
	}
	t.Setenv(SelectEnv, OpenTofu)
	if got := Name(); got != OpenTofu {
		t.Errorf("Name() with %s=tofu = %q", SelectEnv, got)
	}
}

// TestSetup_BuiltCLIsRun proves that the CLIs `make tools` built run and have the pinned versions.
func TestSetup_BuiltCLIsRun(t *testing.T) {
	testgate.Require(t, "the Terraform and OpenTofu CLIs of make tools")
	root, err := checkout.Root()
	if err != nil {
		t.Fatal(err)
	}
	for cli, want := range map[string]string{Terraform: "Terraform v1.5.7", TerraformCurrent: "Terraform v1.16.4\n", OpenTofu: "OpenTofu v1.12."} {
		t.Run(cli, func(t *testing.T) {
			isolateEnv(t)
			if err := setup(root, cli); err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command(os.Getenv("TF_ACC_TERRAFORM_PATH"), "version")
			cmd.Env = append(os.Environ(), "CHECKPOINT_DISABLE=1")
			out, err := cmd.CombinedOutput()
			if err != nil || !strings.HasPrefix(string(out), want) {
				t.Errorf("%s version = %q, %v; want it to start with %q and no warning", cli, out, err, want)
			}
		})
	}
}

func assertEmptyFile(t *testing.T, path string) {
	t.Helper()
	info, err := os.Stat(path)
	if err != nil || info.Size() != 0 {
		t.Errorf("TF_CLI_CONFIG_FILE %q: %v, size %v; want an existing empty file", path, err, info)
	}
}

// TestLacksBackend proves that only the current Terraform lacks the nested
// backends, and that it keeps local.
func TestLacksBackend(t *testing.T) {
	t.Setenv(SelectEnv, TerraformCurrent)
	if lacks, why := LacksBackend("pg"); !lacks || !strings.Contains(why, "pg") {
		t.Errorf("terraform-current LacksBackend(pg) = %v, %q; want true and a reason naming pg", lacks, why)
	}
	if lacks, _ := LacksBackend("local"); lacks {
		t.Error("terraform-current LacksBackend(local) = true")
	}
	for _, cli := range []string{Terraform, OpenTofu} {
		t.Setenv(SelectEnv, cli)
		if lacks, _ := LacksBackend("kubernetes"); lacks {
			t.Errorf("%s LacksBackend(kubernetes) = true", cli)
		}
	}
}
