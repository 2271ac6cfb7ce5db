package provider

import (
	"fmt"
	"os"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/testsupport/localcluster"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/testsupport/tfcli"
)

// testProviders runs the provider in-process for terraform-plugin-testing.
var testProviders = map[string]func() (tfprotov6.ProviderServer, error){
	"landscaper": providerserver.NewProtocol6WithError(New("test")()),
}

// TestMain points the acceptance tests at the locally built CLI and the
// local cluster. Without TF_ACC they skip themselves and need neither; with
// it, either missing is a failure, never a skip.
func TestMain(m *testing.M) {
	if os.Getenv("TF_ACC") != "" {
		if err := tfcli.Setup(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
	localcluster.Main(m)
}
