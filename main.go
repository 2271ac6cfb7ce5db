// Command terraform-provider-landscaper serves the Landscaper provider to
// Terraform and OpenTofu over plugin protocol 6.
package main

import (
	"context"
	"flag"
	"log"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/provider"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/startup"
)

// version is set by goreleaser at release time.
var version = "dev"

// registryAddress is where Terraform finds this provider.
const registryAddress = "registry.terraform.io/landscaper-terraform/landscaper"

func main() {
	var debug bool
	flag.BoolVar(&debug, "debug", false, "run the provider with support for debuggers like delve")
	flag.Parse()
	startup.Resume() // paused while the packages initialised

	quietUnreadLogs(debug)
	stopProfiles := startProfiles()
	err := providerserver.Serve(context.Background(), provider.New(version), providerserver.ServeOpts{
		Address:         registryAddress,
		Debug:           debug,
		ProtocolVersion: 6,
	})
	stopProfiles()
	if err != nil {
		log.Fatal(err.Error())
	}
}
