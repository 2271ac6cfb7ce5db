package inventory

import (
	"bytes"
	"compress/gzip"
	"runtime"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// The hostile suite's bounds (internal/blueprint/hostile_test.go) for
// what a planted inventory record may cost: CPU time, and the growth of
// the heap, here a few times the record bound (the planted record
// of 332 KiB made the provider allocate 818 MiB).
const (
	hostileCPUBound  = 10 * time.Second
	hostileHeapBound = 256 << 20
)

// bombRecord is a gzipped record, forged to pass every identity check,
// whose one item's config is size bytes long: it inflates about a
// thousand times.
func bombRecord(t *testing.T, size int) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	_, _ = zw.Write([]byte(`{"version":1,"installation":"root","instance":"instance-1","items":[{"id":"root/victim","name":"victim","type":"t","config":"`))
	chunk := []byte(strings.Repeat("a", 1<<20))
	for range size >> 20 {
		_, _ = zw.Write(chunk)
	}
	_, _ = zw.Write([]byte(`"}]}`))
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// Hostile inventory records: a record planted to make a lost state's job
// delete someone else's ConfigMap (kube-system/victim) is ignored, and so
// is one that inflates from less than a Secret holds to 250 MiB, within
// the hostile suite's CPU and heap bounds. Before, the first deleted the
// victim and the second was decoded whole.
func TestLoad_HostilePlantedRecords(t *testing.T) {
	bomb := bombRecord(t, 250<<20)
	if len(bomb) > 1<<20 {
		t.Fatalf("the bomb is %d KiB compressed, more than a Secret holds", len(bomb)>>10)
	}
	for _, c := range []struct {
		name    string
		planted func() *unstructured.Unstructured
		why     string
	}{
		{"a record listing another namespace's ConfigMap, in a plain Secret", func() *unstructured.Unstructured {
			return plantedParent(t, func(s *corev1.Secret, _ *Record) { s.Type, s.Labels, s.Annotations = corev1.SecretTypeOpaque, nil, nil })
		}, "its type"},
		{"a record inflating to 250 MiB", func() *unstructured.Unstructured {
			planted := plantedParent(t, nil)
			_ = unstructured.SetNestedField(planted.Object, b64(bomb), "data", recordKey)
			return planted
		}, "more than 67108864 bytes uncompressed"},
	} {
		t.Run(c.name, func(t *testing.T) {
			planted := c.planted()
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			startCPU := cpuTime()
			r, ids, err := loadFrom(t, planted)
			cpu := cpuTime() - startCPU
			runtime.ReadMemStats(&after)
			t.Logf("CPU %s, heap grew by %d MiB (total allocated %d MiB)", cpu.Round(time.Millisecond),
				(after.HeapSys-min(after.HeapSys, before.HeapSys))>>20, (after.TotalAlloc-before.TotalAlloc)>>20)
			if err != nil || len(ids) != 0 {
				t.Fatalf("rebuilt %v (%v)", ids, err)
			}
			assertIgnored(t, r, c.why)
			if raceEnabled {
				return
			}
			if cpu > hostileCPUBound {
				t.Errorf("used %s of CPU, more than %s", cpu, hostileCPUBound)
			}
			if grown := after.HeapSys - min(after.HeapSys, before.HeapSys); grown > hostileHeapBound {
				t.Errorf("the heap grew by %d MiB, more than %d MiB", grown>>20, hostileHeapBound>>20)
			}
		})
	}
}
