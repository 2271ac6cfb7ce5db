package preview

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
)

// benchItem is a typical item: a Deployment, its Service, a ConfigMap
// with a small file and a Secret.
func benchItem(i int) []deployer.PreviewObject {
	name := fmt.Sprintf("app-%04d", i)
	labels := map[string]any{"app.kubernetes.io/name": name, "app.kubernetes.io/part-of": "landscape"}
	meta := func() map[string]any { return map[string]any{"name": name, "namespace": "apps", "labels": labels} }
	return []deployer.PreviewObject{
		{Object: map[string]any{"apiVersion": "apps/v1", "kind": "Deployment", "metadata": meta(), "spec": map[string]any{
			"replicas": 2, "selector": map[string]any{"matchLabels": labels},
			"template": map[string]any{"metadata": map[string]any{"labels": labels}, "spec": map[string]any{"containers": []any{map[string]any{
				"name": "app", "image": "registry.example.com/app:1.2.3",
				"ports":          []any{map[string]any{"name": "http", "containerPort": 8080}},
				"env":            []any{map[string]any{"name": "DATABASE_URL", "value": "postgres://app@db:5432/" + name}, map[string]any{"name": "LOG_LEVEL", "value": "info"}},
				"resources":      map[string]any{"requests": map[string]any{"cpu": "100m", "memory": "128Mi"}, "limits": map[string]any{"memory": "256Mi"}},
				"readinessProbe": map[string]any{"httpGet": map[string]any{"path": "/healthz", "port": "http"}},
			}}}},
		}}},
		{Object: map[string]any{"apiVersion": "v1", "kind": "Service", "metadata": meta(), "spec": map[string]any{
			"selector": labels, "ports": []any{map[string]any{"name": "http", "port": 80, "targetPort": "http"}}}}},
		{Object: map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": meta(), "data": map[string]any{
			"app.yaml": "server:\n  port: 8080\nfeatures:\n  search: true\n  export: false\n"}}},
		{Object: map[string]any{"apiVersion": "v1", "kind": "Secret", "metadata": meta(), "stringData": map[string]any{"password": "pw-" + name}}},
	}
}

// BenchmarkItems_1000 renders the canonical form of 1,000 items (4,000
// objects) with 1,000 registered sensitive values; it reports the text's
// bytes and the bytes the state's JSON would hold for it.
func BenchmarkItems_1000(b *testing.B) {
	items := make([][]deployer.PreviewObject, 1000)
	var s Sensitive
	for i := range items {
		items[i] = benchItem(i)
		s.Add(fmt.Sprintf("pw-app-%04d", i))
	}
	var texts map[string]string
	b.ReportAllocs()
	start, n := cpuTime(), 0
	for b.Loop() {
		n++
		texts = map[string]string{}
		r := NewRenderer(NewMarks(testKey, nil, nil), &s)
		for i, objs := range items {
			out, err := r.Item(fmt.Sprintf("root/sub-%d/app", i), objs)
			if err != nil {
				b.Fatal(err)
			}
			for k, v := range out {
				texts[k] = v
			}
		}
	}
	size := 0
	for k, v := range texts {
		size += len(k) + len(v)
	}
	state, _ := json.Marshal(texts)
	b.ReportMetric(float64((cpuTime()-start).Milliseconds())/float64(n), "cpu-ms/op")
	b.ReportMetric(float64(size), "text-bytes")
	b.ReportMetric(float64(len(state)), "state-bytes")
}

// BenchmarkJoin_1000 joins 4,000 objects' texts into one stream.
func BenchmarkJoin_1000(b *testing.B) {
	texts := map[string]string{}
	r := NewRenderer(nil, nil)
	for i := range 1000 {
		out, err := r.Item(fmt.Sprintf("root/sub-%d/app", i), benchItem(i))
		if err != nil {
			b.Fatal(err)
		}
		for k, v := range out {
			texts[k] = v
		}
	}
	for b.Loop() {
		_ = Join("", texts)
	}
}
