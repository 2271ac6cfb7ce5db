package helm_test

import (
	"io"
	"testing"

	"helm.sh/helm/v3/pkg/registry"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/testsupport/ociregistry"
)

// pushToRegistry starts an OCI registry on a loopback port for this test,
// pushes the chart archive to it and returns its reference in Landscaper's
// form (no scheme).
func pushToRegistry(t *testing.T, tgz []byte) string {
	t.Helper()
	reg := ociregistry.Start(t, ociregistry.Options{})
	client, err := registry.NewClient(registry.ClientOptPlainHTTP(), registry.ClientOptWriter(io.Discard))
	if err != nil {
		t.Fatal(err)
	}
	ref := reg.Host() + "/charts/conformance:0.1.0"
	if _, err := client.Push(tgz, ref); err != nil {
		t.Fatalf("pushing the chart to %s: %v", ref, err)
	}
	return ref
}
