package inventory

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
)

// BenchmarkRecordSecret is what each coalesced write of a parent costs
// the provider before the request: the object (Secret) of a record of 1,000
// manifest items (tools/bench's scale workload), gzipped.
func BenchmarkRecordSecret(b *testing.B) {
	c := content{installation: "scale-0", instance: "i"}
	for i := range 1000 {
		e, err := newEntry(recordItem(deployer.Item{ID: fmt.Sprintf("scale-0/cm-%d", i), Name: fmt.Sprintf("cm-%d", i), Type: "landscaper.gardener.cloud/kubernetes-manifest"},
			deployer.Result{
				ProviderStatus: json.RawMessage(fmt.Sprintf(`{"managedResources":[{"policy":"manage","resource":{"apiVersion":"v1","kind":"ConfigMap","name":"i0-%d","namespace":"bench","uid":"6f1c2a8e-0000-4000-8000-%012d"}}]}`, i, i)),
				Objects:        []deployer.ObjectRef{{APIVersion: "v1", Kind: "ConfigMap", Namespace: "bench", Name: fmt.Sprintf("i0-%d", i)}},
			}))
		if err != nil {
			b.Fatal(err)
		}
		c.items = append(c.items, e)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := c.object("n", "ns"); err != nil {
			b.Fatal(err)
		}
	}
}
