package inventory

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

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
			}), nil)
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

// BenchmarkRecordWrite is what a write of an installation's record costs
// the provider, requests left out (secretStore answers at once): the
// first write of n items ("apply"), and the write after one item changed
// ("change"), which writes one part and the head. "one-secret" is the
// single-Secret encoding of the same record — what every write cost
// before records were split (and what no Secret holds at these sizes).
// Reported besides time: Secrets and bytes of data sent per write.
func BenchmarkRecordWrite(b *testing.B) {
	for _, n := range []int{10_000, 50_000} {
		b.Run(fmt.Sprintf("apply-%d", n), func(b *testing.B) {
			store := newSecretStore()
			p := openedSplit(b, store, testKey(1))
			c := setItems(b, p, n, same("1"))
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				p.parts, p.referenced, p.split, store.objs = map[string]bool{}, map[string]bool{}, nil, map[string]*unstructured.Unstructured{}
				if err := p.write(context.Background(), c); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(len(store.objs)), "secrets/op")
		})
		b.Run(fmt.Sprintf("change-%d", n), func(b *testing.B) {
			store := newSecretStore()
			p := openedSplit(b, store, testKey(1))
			if err := p.write(context.Background(), setItems(b, p, n, same("1"))); err != nil {
				b.Fatal(err)
			}
			applies, sent, rev := store.applies, store.sent, 0
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				rev++
				e, err := newEntry(configMapItem(n/2, fmt.Sprint(rev)), nil)
				if err != nil {
					b.Fatal(err)
				}
				p.mu.Lock()
				p.items[e.id] = e
				c := p.contentLocked()
				p.mu.Unlock()
				if err := p.write(context.Background(), c); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(store.applies-applies)/float64(rev), "secrets/op")
			b.ReportMetric(float64(store.sent-sent)/float64(rev), "sent-B/op")
		})
		b.Run(fmt.Sprintf("one-secret-%d", n), func(b *testing.B) {
			p := openedSplit(b, newSecretStore(), testKey(1))
			c := setItems(b, p, n, same("1"))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := c.object(p.name, p.namespace); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
