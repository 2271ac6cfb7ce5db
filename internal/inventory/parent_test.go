package inventory

import (
	"encoding/json"
	"fmt"
	"reflect"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/compress"
)

func testContent(t *testing.T, n int) content {
	t.Helper()
	c := content{installation: "root", instance: "instance-1"}
	for i := range n {
		it := recordedItem(fmt.Sprintf("root/sub/item-%03d", n-i), "landscaper.gardener.cloud/kubernetes-manifest",
			fmt.Sprintf(`{"managedResources":[{"policy":"manage","resource":{"apiVersion":"apps/v1","kind":"Deployment","name":"d%d","namespace":"ns-%d"}},{"resource":{"apiVersion":"v1","kind":"Namespace","name":"x"}}]}`, i, i%3))
		it.Config = json.RawMessage(fmt.Sprintf(`{"manifests":[{"manifest":{"kind":"ConfigMap","data":{"k":"<%d>\u2028"}}}]}`, i))
		e, err := newEntry(it)
		if err != nil {
			t.Fatal(err)
		}
		c.items = append(c.items, e)
	}
	return c
}

// secret is the parent as a typed Secret: what object must equal once the
// unstructured converter made it unstructured (the way writes built it
// before object).
func (c content) secret(name, namespace string) (*corev1.Secret, error) {
	record, gks, nss, err := c.encode(namespace)
	if err != nil {
		return nil, err
	}
	return &corev1.Secret{
		TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Secret"},
		ObjectMeta: metav1.ObjectMeta{
			Name: name, Namespace: namespace,
			Labels: c.labels(name, namespace), Annotations: c.annotations(gks, nss),
		},
		Type: secretType,
		Data: map[string][]byte{recordKey: record},
	}, nil
}

// TestContent_ObjectIsTheConvertedSecret: the parent is written as the
// unstructured converter made it of the typed Secret (less the null
// creationTimestamp), and its record decodes to exactly the JSON that
// json.Marshal gives of the Record.
func TestContent_ObjectIsTheConvertedSecret(t *testing.T) {
	for _, n := range []int{0, 1, 7, 300} {
		c := testContent(t, n)
		sec, err := c.secret("parent", "ns-0")
		if err != nil {
			t.Fatal(err)
		}
		converted, err := runtime.DefaultUnstructuredConverter.ToUnstructured(sec)
		if err != nil {
			t.Fatal(err)
		}
		unstructured.RemoveNestedField(converted, "metadata", "creationTimestamp")
		got, err := c.object("parent", "ns-0")
		if err != nil {
			t.Fatal(err)
		}
		// The record's compressed bytes are compared after decompression.
		want := unstructured.Unstructured{Object: converted}
		wantRecord, gotRecord := recordOf(t, &want), recordOf(t, got)
		unstructured.RemoveNestedField(want.Object, "data")
		unstructured.RemoveNestedField(got.Object, "data")
		if !reflect.DeepEqual(got.Object, want.Object) {
			t.Fatalf("n=%d: object\n%v\nwant\n%v", n, got.Object, want.Object)
		}
		if gotRecord != wantRecord {
			t.Fatalf("n=%d: record differs from the Secret's", n)
		}

		rec := Record{Version: recordVersion, Installation: c.installation, Instance: c.instance}
		for _, e := range c.items { // sorted by encode
			var it Item
			if err := json.Unmarshal(e.raw, &it); err != nil {
				t.Fatal(err)
			}
			rec.Items = append(rec.Items, it)
		}
		marshaled, err := json.Marshal(rec)
		if err != nil {
			t.Fatal(err)
		}
		if n == 0 { // an empty list, where Marshal of a nil slice says null
			marshaled = []byte(`{"version":1,"installation":"root","instance":"instance-1","items":[]}`)
		}
		if gotRecord != string(marshaled) {
			t.Fatalf("n=%d: record\n%s\nwant\n%s", n, gotRecord, marshaled)
		}
	}
}

// recordOf is the decompressed record of an unstructured parent.
func recordOf(t *testing.T, u *unstructured.Unstructured) string {
	t.Helper()
	var sec struct {
		Data map[string][]byte `json:"data"`
	}
	raw, err := u.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, &sec); err != nil {
		t.Fatal(err)
	}
	out, err := compress.Gunzip(sec.Data[recordKey], maxRecordSize)
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}
