package landscaperyaml

import (
	"reflect"
	"strings"
	"testing"
)

const refsInstallation = `apiVersion: landscaper.gardener.cloud/v1alpha1
kind: Installation
metadata: {name: shop, namespace: ls}
spec:
  blueprint:
    inline:
      filesystem:
        blueprint.yaml: "apiVersion: landscaper.gardener.cloud/v1alpha1\nkind: Blueprint\n"
  imports:
    data:
    - {name: settings, dataRef: shop-settings}
    - {name: again, dataRef: "#shop-settings"}
    - {name: hashed, dataRef: "Not/A Name"}
    - {name: secret, secretRef: {name: s}}
    targets:
    - {name: cluster, target: shop-cluster}
    - {name: list, targets: [a, shop-cluster]}
    - {name: map, targetMap: {eu: b}}
`

// TestMissing: the objects an Installation refers to that are not among
// those given are listed once each, by the name Landscaper derives;
// With adds them and refuses a duplicate.
func TestMissing(t *testing.T) {
	inst := parse(t, "manifest", refsInstallation)
	given := parse(t, "manifest_objects", `apiVersion: landscaper.gardener.cloud/v1alpha1
kind: Target
metadata: {name: a, namespace: ls}
spec: {type: t, config: {}}
---
apiVersion: landscaper.gardener.cloud/v1alpha1
kind: DataObject
metadata: {name: shop-settings, namespace: other}
data: 1
`)
	got := Missing(inst, given, "ls")
	want := []Ref{
		{KindDataObject, "shop-settings"}, {KindDataObject, objectName("Not/A Name")},
		{KindTarget, "shop-cluster"}, {KindTarget, "b"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("Missing = %v, want %v", got, want)
	}
	if got := Missing(inst, nil, "ls"); len(got) != 5 {
		t.Errorf("Missing without objects = %v, want all 5", got)
	}

	host := parse(t, "host cluster", `apiVersion: landscaper.gardener.cloud/v1alpha1
kind: DataObject
metadata: {name: shop-settings, namespace: ls}
data: 2
`)
	all, err := given.With(host)
	if err != nil {
		t.Fatal(err)
	}
	if got := Missing(inst, all, "ls"); len(got) != 3 {
		t.Errorf("Missing after With = %v, want 3 left", got)
	}
	if _, err := all.With(host); err == nil || !strings.Contains(err.Error(), `DataObject "ls/shop-settings" (host cluster, document 1): the same kind and name`) {
		t.Errorf("With of a duplicate: err = %v", err)
	}
}
