package landscaperstate_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"reflect"
	"sort"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/yaml"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/landscaperstate"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/testsupport/landscaperrecording"
)

// The tests of this file read what Landscaper v0.98's own controllers
// wrote (landscaperrecording) and check Read against the recording
// itself: owner references, labels, Secrets and deployed objects are the
// oracle, never the reader's own idea of them.

// recorded reads every root Installation of every recording.
func recorded(t *testing.T, each func(t *testing.T, rec *landscaperrecording.Recording, land *landscaperstate.Landscape)) {
	for _, name := range landscaperrecording.Recordings() {
		rec := landscaperrecording.MustLoad(t, name)
		for _, root := range rec.Meta.Roots {
			t.Run(name+"/"+root, func(t *testing.T) {
				land, err := landscaperstate.Read(context.Background(), fakeHost(rec.Host), rec.Meta.HostNamespace, root)
				if err != nil {
					t.Fatalf("Read: %v", err)
				}
				each(t, rec, land)
			})
		}
	}
}

// Every root Landscaper finished reads as settled.
func TestRecorded_Settled(t *testing.T) {
	recorded(t, func(t *testing.T, _ *landscaperrecording.Recording, land *landscaperstate.Landscape) {
		if err := land.Settled(); err != nil {
			t.Error(err)
		}
	})
}

// Objects are exactly the root and what it owns, directly or through
// what it owns (Landscaper's owner references); the user's objects are
// not among them.
func TestRecorded_ObjectsAreWhatTheRootOwns(t *testing.T) {
	recorded(t, func(t *testing.T, rec *landscaperrecording.Recording, land *landscaperstate.Landscape) {
		owned := map[string]bool{string(rec.Find("Installation", land.Root.Name).GetUID()): true}
		for grew := true; grew; {
			grew = false
			for _, o := range rec.Host {
				for _, ref := range o.GetOwnerReferences() {
					if owned[string(ref.UID)] && !owned[string(o.GetUID())] {
						owned[string(o.GetUID())], grew = true, true
					}
				}
			}
		}
		var want, got []string
		for _, o := range rec.Host {
			if owned[string(o.GetUID())] {
				want = append(want, o.GetKind()+" "+o.GetName())
			}
		}
		for _, o := range land.Objects {
			got = append(got, o.Kind+" "+o.Name)
		}
		sort.Strings(want)
		sort.Strings(got)
		if strings.Join(got, ", ") != strings.Join(want, ", ") {
			t.Errorf("Objects:\n  %s\nthe root owns:\n  %s", strings.Join(got, ", "), strings.Join(want, ", "))
		}
	})
}

// Each deploy item's resources are the deployed objects, with the UID the
// deployer recorded and the label Read says the deployer put on them; a
// Helm release is where Read says; exports are the export Secret's.
func TestRecorded_WhatIsDeployedWhere(t *testing.T) {
	recorded(t, func(t *testing.T, rec *landscaperrecording.Recording, land *landscaperstate.Landscape) {
		deployed := map[string]*unstructured.Unstructured{}
		for _, o := range rec.Target {
			deployed[o.GetKind()+"/"+o.GetNamespace()+"/"+o.GetName()] = o
		}
		land.Root.Walk(func(inst *landscaperstate.Installation) {
			if inst.Execution == nil {
				return
			}
			for _, di := range inst.Execution.DeployItems {
				checkItem(t, rec, deployed, di)
			}
		})
	})
}

func checkItem(t *testing.T, rec *landscaperrecording.Recording, deployed map[string]*unstructured.Unstructured, di *landscaperstate.DeployItem) {
	t.Helper()
	for _, r := range di.Resources {
		o := deployed[r.Kind+"/"+r.Namespace+"/"+r.Name]
		switch {
		case o == nil:
			t.Errorf("%s: resource %s %s/%s was not deployed", di.Name, r.Kind, r.Namespace, r.Name)
		case r.UID != "" && r.UID != string(o.GetUID()):
			t.Errorf("%s: %s %s has UID %s, the deployer recorded %s", di.Name, r.Kind, r.Name, o.GetUID(), r.UID)
		case di.OwnerLabel.Key != "" && o.GetLabels()[di.OwnerLabel.Key] != di.OwnerLabel.Value:
			t.Errorf("%s: %s %s has labels %v, Read says %s=%s", di.Name, r.Kind, r.Name, o.GetLabels(), di.OwnerLabel.Key, di.OwnerLabel.Value)
		}
	}
	if di.Type != mockType && len(di.Resources) == 0 {
		t.Errorf("%s: no resources", di.Name)
	}
	if di.Helm != nil {
		if deployed["Secret/"+di.Helm.Namespace+"/sh.helm.release.v1."+di.Helm.Name+".v1"] == nil {
			t.Errorf("%s: no release %s/%s", di.Name, di.Helm.Namespace, di.Helm.Name)
		}
		if di.OwnerLabel != (landscaperstate.Label{}) {
			t.Errorf("%s: a release's objects carry Helm's labels, Read says %+v", di.Name, di.OwnerLabel)
		}
	}
	if di.Target == nil && di.Type != mockType {
		t.Errorf("%s: no target", di.Name)
	} else if di.Target != nil && !strings.Contains(string(di.Target.Spec.Config), landscaperrecording.KubeconfigPlaceholder) {
		t.Errorf("%s: target %s not resolved to the kubeconfig: %s", di.Name, di.TargetName, di.Target.Spec.Config)
	}
	item := rec.Find("DeployItem", di.ObjectRef.Name)
	// What Read takes from the Execution's compressed templates, against
	// what Landscaper copied onto the DeployItem.
	if deps := item.GetAnnotations()["execution.landscaper.gardener.cloud/dependsOn"]; strings.Join(di.DependsOn, ",") != deps {
		t.Errorf("%s: dependsOn %v, the DeployItem's annotation %q", di.Name, di.DependsOn, deps)
	}
	timeout, _, _ := unstructured.NestedString(item.Object, "spec", "timeout")
	onChange, _, _ := unstructured.NestedBool(item.Object, "spec", "updateOnChangeOnly")
	if di.Timeout != timeout || di.UpdateOnChangeOnly != onChange {
		t.Errorf("%s: timeout %q, updateOnChangeOnly %v; the DeployItem has %q, %v", di.Name, di.Timeout, di.UpdateOnChangeOnly, timeout, onChange)
	}
	ref, found, _ := unstructured.NestedString(item.Object, "status", "exportRef", "name")
	if !found {
		if di.Exports != nil {
			t.Errorf("%s: exports %s without an export Secret", di.Name, di.Exports)
		}
		return
	}
	data, _, _ := unstructured.NestedString(rec.Find("Secret", ref).Object, "data", "config")
	raw, err := base64.StdEncoding.DecodeString(data)
	if err != nil {
		t.Fatal(err)
	}
	if !sameJSON(di.Exports, raw) {
		t.Errorf("%s: exports %s, the export Secret %s holds %s", di.Name, di.Exports, ref, raw)
	}
}

func sameJSON(a, b []byte) bool {
	var x, y any
	return json.Unmarshal(a, &x) == nil && json.Unmarshal(b, &y) == nil && reflect.DeepEqual(x, y)
}

// Imports and exports are the DataObjects Landscaper recorded for each
// installation (by their labels), and a root's exports the DataObjects
// its spec.exports name.
func TestRecorded_ImportsAndExports(t *testing.T) {
	recorded(t, func(t *testing.T, rec *landscaperrecording.Recording, land *landscaperstate.Landscape) {
		land.Root.Walk(func(inst *landscaperstate.Installation) {
			if e := inst.Execution; e != nil {
				ref, _, _ := unstructured.NestedString(rec.Find("Execution", e.Name).Object, "status", "exportRef", "name")
				data, _ := json.Marshal(rec.Find("DataObject", ref).Object["data"])
				if !sameJSON(e.Exports, data) {
					t.Errorf("%s: execution exports %s, DataObject %s holds %s", inst.Name, e.Exports, ref, data)
				}
			}
			for _, do := range rec.OfKind("DataObject") {
				l := do.GetLabels()
				data, _ := json.Marshal(do.Object["data"])
				switch {
				case l["data.landscaper.gardener.cloud/sourceType"] == "import" && l["data.landscaper.gardener.cloud/context"] == "Inst."+inst.Name:
					if !sameJSON(inst.Imports[l["data.landscaper.gardener.cloud/key"]], data) {
						t.Errorf("%s: import %s = %s, recorded %s", inst.Name, l["data.landscaper.gardener.cloud/key"], inst.Imports[l["data.landscaper.gardener.cloud/key"]], data)
					}
				case l["data.landscaper.gardener.cloud/sourceType"] == "export" && l["data.landscaper.gardener.cloud/source"] == "Inst."+inst.Name:
					if !sameJSON(inst.Exports[l["data.landscaper.gardener.cloud/key"]], data) {
						t.Errorf("%s: export %s = %s, recorded %s", inst.Name, l["data.landscaper.gardener.cloud/key"], inst.Exports[l["data.landscaper.gardener.cloud/key"]], data)
					}
				}
			}
		})
		spec, _, _ := unstructured.NestedSlice(rec.Find("Installation", land.Root.Name).Object, "spec", "exports", "data")
		for _, e := range spec {
			dataRef := e.(map[string]any)["dataRef"].(string)
			data, _ := json.Marshal(rec.Find("DataObject", dataRef).Object["data"])
			if !sameJSON(land.Root.Exports[dataRef], data) {
				t.Errorf("root export %s = %s, DataObject %s", dataRef, land.Root.Exports[dataRef], data)
			}
		}
	})
}

// mockType is Landscaper's mock deployer's type: it deploys nothing.
const mockType = "landscaper.gardener.cloud/mock"

// A kubernetes-cluster Target whose Secret holds the kubeconfig itself
// under its key (storefront's apps-secret; Landscaper deployed with it)
// resolves to {"kubeconfig": <the Secret's text>}, like an inline one;
// Read used to take the kubeconfig's own fields for the config.
func TestRecorded_TargetWithTheKubeconfigInASecret(t *testing.T) {
	const kubeconfig = "apiVersion: v1\nkind: Config\nclusters:\n- name: apps\n  cluster: {server: 'https://127.0.0.1:1'}\n"
	rec, err := landscaperrecording.MustLoad(t, "harbor-installed").Rewrite(landscaperrecording.ReplayOptions{Kubeconfig: kubeconfig})
	if err != nil {
		t.Fatal(err)
	}
	land, err := landscaperstate.Read(context.Background(), fakeHost(rec.Host), rec.Meta.HostNamespace, "storefront")
	if err != nil {
		t.Fatal(err)
	}
	want := `{"kubeconfig": ` + strconvQuote(kubeconfig) + `}`
	items := 0
	land.Root.Walk(func(inst *landscaperstate.Installation) {
		for _, di := range inst.Execution.DeployItems {
			items++
			assertJSON(t, di.Name+" target config", di.Target.Spec.Config, want)
		}
		for name, targets := range inst.ImportedTargets {
			for _, tgt := range targets {
				assertJSON(t, inst.Name+" imported "+name, tgt.Spec.Config, want)
			}
		}
	})
	if items != 4 {
		t.Errorf("%d deploy items", items)
	}
	if !strings.Contains(land.ManifestObjects, "name: apps-secret") || !strings.Contains(land.ManifestObjects, "kubeconfig: |") {
		t.Errorf("manifest objects:\n%s", land.ManifestObjects)
	}
}

func strconvQuote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// DataObjectName names every DataObject and Target Landscaper made as
// Landscaper did: records by their context and key label, an
// Execution's exports by its context alone.
func TestRecorded_DataObjectNames(t *testing.T) {
	checked := 0
	for _, name := range landscaperrecording.Recordings() {
		rec := landscaperrecording.MustLoad(t, name)
		for _, o := range rec.Host {
			l := o.GetLabels()
			ctx, hasCtx := l["data.landscaper.gardener.cloud/context"]
			key, hasKey := l["data.landscaper.gardener.cloud/key"]
			if (o.GetKind() != "DataObject" && o.GetKind() != "Target") || (!hasCtx && !hasKey) {
				continue
			}
			checked++
			if want := landscaperstate.DataObjectName(ctx, key); o.GetName() != want {
				t.Errorf("%s: %s with context %q, key %q is named %s; DataObjectName says %s", name, o.GetKind(), ctx, key, o.GetName(), want)
			}
		}
	}
	if checked < 50 {
		t.Errorf("only %d names checked", checked)
	}
}

// The Manifest is the root Installation as the user applied it (the
// landscape's input), without the reconcile annotation Landscaper acted
// on and consumed, and without the spec.context "default" Landscaper's
// defaulting added to the roots that name no Context (issue 26).
func TestRecorded_ManifestIsWhatTheUserApplied(t *testing.T) {
	inputs, err := landscaperrecording.BuildLandscape("harbor", landscaperrecording.LandscapeOptions{
		Kubeconfig: landscaperrecording.KubeconfigPlaceholder, Registry: "127.0.0.1:5077"})
	if err != nil {
		t.Fatal(err)
	}
	applied := map[string]*unstructured.Unstructured{}
	for _, inst := range inputs.Installations {
		applied[inst.GetName()] = inst
	}
	recorded(t, func(t *testing.T, rec *landscaperrecording.Recording, land *landscaperstate.Landscape) {
		var got map[string]any
		if err := yaml.Unmarshal([]byte(land.Manifest), &got); err != nil {
			t.Fatal(err)
		}
		want := applied[land.Root.Name].DeepCopy()
		annotations := want.GetAnnotations()
		delete(annotations, "landscaper.gardener.cloud/operation")
		want.SetAnnotations(annotations)
		if len(annotations) == 0 {
			unstructured.RemoveNestedField(want.Object, "metadata", "annotations")
		}
		wantJSON, _ := json.Marshal(want.Object)
		gotJSON, _ := json.Marshal(got)
		if !sameJSON(gotJSON, wantJSON) {
			t.Errorf("manifest\n%s\nwhat was applied\n%s", gotJSON, wantJSON)
		}
	})
}
