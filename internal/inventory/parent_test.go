package inventory

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/compress"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/fingerprint"
)

func testContent(t *testing.T, n int) content {
	t.Helper()
	c := content{installation: "root", instance: "instance-1"}
	for i := range n {
		id := fmt.Sprintf("root/sub/item-%03d", n-i)
		it := recordItem(deployer.Item{ID: id, Name: id[strings.LastIndex(id, "/")+1:], Type: "landscaper.gardener.cloud/kubernetes-manifest",
			Config: json.RawMessage(fmt.Sprintf(`{"manifests":[{"manifest":{"kind":"ConfigMap","data":{"k":"<%d>\u2028"}}}]}`, i))},
			deployer.Result{
				ProviderStatus: json.RawMessage(fmt.Sprintf(`{"managedResources":[{"policy":"manage","resource":{"apiVersion":"apps/v1","kind":"Deployment","name":"d%d","namespace":"ns-%d"}},{"resource":{"apiVersion":"v1","kind":"Namespace","name":"x"}}]}`, i, i%3)),
				Objects: []deployer.ObjectRef{{APIVersion: "apps/v1", Kind: "Deployment", Namespace: fmt.Sprintf("ns-%d", i%3), Name: fmt.Sprintf("d%d", i)},
					{APIVersion: "v1", Kind: "Namespace", Name: "x"}},
			})
		e, err := newEntry(it, nil)
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
			var it RecordedItem
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

// TestNewItem_GroupKindsFromDeclaredObjects: the record lists the group
// kinds and namespaces of the objects the deployer declared
// (deployer.Result.Objects), each once and sorted, whatever its provider
// status says; a record read back gives the parent the same annotations.
func TestNewItem_GroupKindsFromDeclaredObjects(t *testing.T) {
	res := deployer.Result{
		ProviderStatus: json.RawMessage(`{"release":{"name":"r"}}`), // a format the inventory never reads
		Objects: []deployer.ObjectRef{
			{APIVersion: "apps/v1", Kind: "Deployment", Namespace: "b", Name: "d"},
			{APIVersion: "v1", Kind: "ConfigMap", Namespace: "a", Name: "c1"},
			{APIVersion: "v1", Kind: "ConfigMap", Namespace: "b", Name: "c2"},
			{APIVersion: "rbac.authorization.k8s.io/v1", Kind: "ClusterRole", Name: "r"},
			{APIVersion: "a/b/c", Kind: "Broken", Name: "x"}, // no valid group version: left out
		},
	}
	it := recordItem(deployer.Item{ID: "root/x", Name: "x", Type: "t"}, res)
	wantKinds := []string{"ClusterRole.rbac.authorization.k8s.io", "ConfigMap", "Deployment.apps"}
	if !reflect.DeepEqual(it.GroupKinds, wantKinds) || !reflect.DeepEqual(it.Namespaces, []string{"a", "b"}) {
		t.Fatalf("group kinds %v, namespaces %v", it.GroupKinds, it.Namespaces)
	}
	if string(it.ProviderStatus) != string(res.ProviderStatus) {
		t.Errorf("provider status %s, want the deployer's unchanged", it.ProviderStatus)
	}
	if none := recordItem(deployer.Item{ID: "root/y"}, deployer.Result{ProviderStatus: json.RawMessage(`{}`)}); none.GroupKinds != nil || none.Namespaces != nil {
		t.Errorf("no objects: %v %v", none.GroupKinds, none.Namespaces)
	}

	e, err := newEntry(it, nil)
	if err != nil {
		t.Fatal(err)
	}
	var back RecordedItem
	if err := json.Unmarshal(e.raw, &back); err != nil {
		t.Fatal(err)
	}
	again, err := newEntry(back, nil)
	if err != nil {
		t.Fatal(err)
	}
	_, gks, nss, err := content{items: []entry{again}}.encode("a")
	if err != nil {
		t.Fatal(err)
	}
	if gks != strings.Join(wantKinds, ",") || nss != "b" {
		t.Errorf("annotations from a record read back: group kinds %q, other namespaces %q", gks, nss)
	}
}

// The record's head is written without passing kept through json.Marshal
// again: for kept as json.Marshal writes it (what Keep is given) the
// record is byte for byte what json.Marshal of the Record gives, with and
// without kept and reconciled.
func TestContent_HeadAsJSONMarshalWritesIt(t *testing.T) {
	kept, err := json.Marshal(map[string]any{"attributes": map[string]string{"text": "a <b> & \u2028 \"c\""}, "snapshot": []int{1, 2}})
	if err != nil {
		t.Fatal(err)
	}
	outcome := &Reconciled{JobID: "j-1", Phase: "Failed", Message: "<x>", Errors: map[string]string{"root/a": "no"}}
	for _, tc := range []struct {
		name       string
		kept       json.RawMessage
		reconciled *Reconciled
	}{{"neither", nil, nil}, {"kept", kept, nil}, {"reconciled", nil, outcome}, {"both", kept, outcome}} {
		t.Run(tc.name, func(t *testing.T) {
			c := testContent(t, 3)
			c.kept, c.reconciled = tc.kept, tc.reconciled
			record, _, _, err := c.encode("ns")
			if err != nil {
				t.Fatal(err)
			}
			raw, err := compress.Gunzip(record, maxRecordSize)
			if err != nil {
				t.Fatal(err)
			}
			var rec Record
			if err := json.Unmarshal(raw, &rec); err != nil {
				t.Fatalf("the record is not JSON: %v\n%s", err, raw)
			}
			want, err := json.Marshal(rec)
			if err != nil {
				t.Fatal(err)
			}
			if string(raw) != string(want) {
				t.Fatalf("record\n%s\nwant (json.Marshal)\n%s", raw, want)
			}
			if string(rec.Kept) != string(tc.kept) || (tc.reconciled == nil) != (rec.Reconciled == nil) {
				t.Fatalf("kept %s, reconciled %v", rec.Kept, rec.Reconciled)
			}
		})
	}
}

// The record of an item whose configuration holds a write-only value
// holds the mask instead, in every form the value takes; a config
// without one is recorded as it is.
func TestRecordItem_MasksWriteOnlyValues(t *testing.T) {
	const wo = "wo-value-5e1f"
	b64 := base64.StdEncoding.EncodeToString([]byte(wo))
	cfg := json.RawMessage(`{"a":"x ` + wo + ` y","b":"` + b64 + `","c":"plain"}`)
	it := recordItem(deployer.Item{ID: "root/x", Name: "x", Type: "t", Config: cfg, WriteOnly: fingerprint.Forms{b64, wo}}, deployer.Result{})
	if strings.Contains(string(it.Config), wo) || strings.Contains(string(it.Config), b64) ||
		!strings.Contains(string(it.Config), fingerprint.Marker) || !strings.Contains(string(it.Config), "plain") {
		t.Errorf("recorded config %s", it.Config)
	}
	if plain := recordItem(deployer.Item{ID: "root/y", Config: json.RawMessage(`{"c":"plain"}`), WriteOnly: fingerprint.Forms{wo}}, deployer.Result{}); string(plain.Config) != `{"c":"plain"}` {
		t.Errorf("a config without write-only values recorded as %s", plain.Config)
	}
}
