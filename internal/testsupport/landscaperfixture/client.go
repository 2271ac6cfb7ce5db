package landscaperfixture

import (
	"context"
	"testing"
	"time"

	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/testsupport/localcluster"
)

// Client returns a dynamic client of the test's local cluster, whose API
// server then serves Landscaper's kinds (EnsureCRDs): what a test of
// external deployers needs before it starts the test deployer.
func Client(t testing.TB) dynamic.Interface {
	t.Helper()
	config := localcluster.RESTConfig(t)
	// Landscaper's finalizer name has no path, which the API server warns
	// about on every write.
	config.WarningHandler = rest.NoWarnings{}
	client, err := dynamic.NewForConfig(config)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := EnsureCRDs(ctx, client); err != nil {
		t.Fatal(err)
	}
	return client
}
