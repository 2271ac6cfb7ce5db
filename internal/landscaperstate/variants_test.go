package landscaperstate_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/landscaperstate"
	fixture "github.com/landscaper-terraform/terraform-provider-landscaper/internal/testsupport/landscaperfixture"
)

// edited returns the fixture's host objects with edit applied to the
// object of kind and name.
func edited(t *testing.T, kind, name string, edit func(u *unstructured.Unstructured)) []*unstructured.Unstructured {
	t.Helper()
	l := fixtureLandscape()
	o := l.Find(kind, name)
	if o == nil {
		t.Fatalf("fixture has no %s %s", kind, name)
	}
	edit(o)
	return l.Host
}

func set(t *testing.T, u *unstructured.Unstructured, value any, path ...string) {
	t.Helper()
	if value == nil {
		unstructured.RemoveNestedField(u.Object, path...)
		return
	}
	if err := unstructured.SetNestedField(u.Object, value, path...); err != nil {
		t.Fatal(err)
	}
}

// Read refuses, naming the object and field, and never quoting a value.
func TestRead_Errors(t *testing.T) {
	const secretValue = "s3cr3t-value"
	cases := []struct {
		name string
		objs []*unstructured.Unstructured
		read string
		want string
	}{
		{"missing installation", fixtureLandscape().Host, "nope", "Installation landscape/nope not found"},
		{"subinstallation", fixtureLandscape().Host, fixture.SubName, `is a subinstallation of "shop": read its root`},
		{"dangling executionRef", edited(t, "Installation", fixture.RootName, func(u *unstructured.Unstructured) {
			set(t, u, "gone", "status", "executionRef", "name")
		}), fixture.RootName, `Installation landscape/shop: status.executionRef: Execution "gone" not found`},
		{"dangling subinstallation", edited(t, "Installation", fixture.RootName, func(u *unstructured.Unstructured) {
			set(t, u, []any{map[string]any{"specName": "web", "objectName": "web-zzzzz"}}, "status", "subInstCache", "activeSubs")
		}), fixture.RootName, `status.subInstCache.activeSubs[0]: Installation "web-zzzzz" not found`},
		{"subinstallation loop", edited(t, "Installation", fixture.SubName, func(u *unstructured.Unstructured) {
			set(t, u, []any{map[string]any{"specName": "again", "objectName": fixture.RootName}}, "status", "subInstCache", "activeSubs")
		}), fixture.RootName, "Installation landscape/shop is its own ancestor"},
		{"template without item", edited(t, "Execution", fixture.RootName, func(u *unstructured.Unstructured) {
			set(t, u, nil, "status", "deployItemCache")
			set(t, u, nil, "spec", "deployItemsCompressed")
			set(t, u, []any{map[string]any{"name": "other", "type": "x"}}, "spec", "deployItems")
		}), fixture.RootName, `Execution landscape/shop: spec.deployItems[0] ("other"): no DeployItem`},
		{"corrupt compressed templates", edited(t, "Execution", fixture.RootName, func(u *unstructured.Unstructured) {
			set(t, u, base64.StdEncoding.EncodeToString([]byte(secretValue)), "spec", "deployItemsCompressed")
		}), fixture.RootName, "Execution landscape/shop: spec.deployItemsCompressed: not gzip"},
		{"bad provider status", edited(t, "DeployItem", fixture.SettingsItemName, func(u *unstructured.Unstructured) {
			set(t, u, []any{map[string]any{"policy": secretValue, "resource": map[string]any{"kind": secretValue}}},
				"status", "providerStatus", "managedResources")
		}), fixture.RootName, "DeployItem landscape/" + fixture.SettingsItemName + ": status.providerStatus.managedResources[0]: resource: needs apiVersion, kind and name"},
		{"missing target", edited(t, "DeployItem", fixture.SettingsItemName, func(u *unstructured.Unstructured) {
			set(t, u, "elsewhere", "spec", "target", "name")
		}), fixture.RootName, `spec.target: Target "elsewhere" not found`},
		{"missing import", edited(t, "DataObject", fixture.SettingsDataObject, func(u *unstructured.Unstructured) {
			u.SetName("renamed")
		}), fixture.RootName, `Installation landscape/shop: spec.imports.data[1].dataRef: DataObject "shop-settings" not found`},
		{"unreadable exports", edited(t, "Secret", fixture.SettingsItemName+"-export", func(u *unstructured.Unstructured) {
			set(t, u, base64.StdEncoding.EncodeToString([]byte("a: "+secretValue+"\n\t- [")), "data", "config")
		}), fixture.RootName, "status.exportRef: Secret \"" + fixture.SettingsItemName + "-export\", key config: neither YAML nor JSON"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := landscaperstate.Read(context.Background(), fakeHost(tc.objs), hostNS, tc.read)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want %q", err, tc.want)
			}
			if strings.Contains(err.Error(), secretValue) {
				t.Errorf("error quotes a value: %v", err)
			}
		})
	}
}

// Without Landscaper's caches and with the templates uncompressed (older
// Landscaper versions), Read finds the same tree through the labels.
func TestRead_WithoutCachesAndUncompressed(t *testing.T) {
	want := read(t, fixtureLandscape().Host)
	l := fixtureLandscape()
	for _, o := range l.Host {
		switch o.GetKind() {
		case "Installation":
			set(t, o, nil, "status", "subInstCache")
		case "Execution":
			set(t, o, nil, "status", "deployItemCache")
			raw, _ := json.Marshal(templatesOf(t, want, o.GetName()))
			var plain []any
			_ = json.Unmarshal(raw, &plain)
			set(t, o, nil, "spec", "deployItemsCompressed")
			set(t, o, plain, "spec", "deployItems")
		}
	}
	got := read(t, l.Host)
	if !reflect.DeepEqual(summary(got.Root), summary(want.Root)) {
		t.Errorf("tree\n%v\nwant\n%v", summary(got.Root), summary(want.Root))
	}
}

// templatesOf rebuilds an Execution's templates from what Read returned.
func templatesOf(t *testing.T, land *landscaperstate.Landscape, execution string) []map[string]any {
	var out []map[string]any
	land.Root.Walk(func(inst *landscaperstate.Installation) {
		if inst.Execution == nil || inst.Execution.Name != execution {
			return
		}
		for _, di := range inst.Execution.DeployItems {
			out = append(out, map[string]any{"name": di.Name, "type": di.Type, "config": di.Config, "dependsOn": di.DependsOn,
				"target": map[string]any{"name": di.TargetName, "namespace": hostNS}})
		}
	})
	if out == nil {
		t.Fatalf("no execution %s", execution)
	}
	return out
}

func summary(root *landscaperstate.Installation) []string {
	var out []string
	root.Walk(func(inst *landscaperstate.Installation) {
		out = append(out, inst.SpecName+"="+inst.Name)
		for _, di := range inst.Execution.DeployItems {
			out = append(out, "  "+di.Name+"="+di.ObjectRef.Name+" "+strings.Join(di.DependsOn, ",")+" "+string(di.Config)[:40])
		}
	})
	return out
}

// A Target whose config is in a Secret is resolved, and written into
// ManifestObjects as spec.config (the manifest form takes no secretRef).
func TestRead_TargetSecretRef(t *testing.T) {
	l := fixtureLandscape()
	target := l.Find("Target", fixture.TargetName)
	set(t, target, nil, "spec", "config")
	set(t, target, map[string]any{"name": "cluster-access", "key": "target"}, "spec", "secretRef")
	secret := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "v1", "kind": "Secret",
		"metadata": map[string]any{"name": "cluster-access", "namespace": hostNS},
		"data":     map[string]any{"target": base64.StdEncoding.EncodeToString([]byte("kubeconfig: |\n  " + kubecfg[:15] + "\n"))}}}
	land := read(t, append(l.Host, secret))
	settings := land.Root.Execution.DeployItems[0]
	assertJSON(t, "resolved config", settings.Target.Spec.Config, `{"kubeconfig": "apiVersion: v1\n"}`)
	if strings.Contains(land.ManifestObjects, "secretRef") || !strings.Contains(land.ManifestObjects, "kubeconfig: |") {
		t.Errorf("ManifestObjects:\n%s", land.ManifestObjects)
	}
}

// The manifest deployer's old status version (bare references) reads
// into the same resources, without a policy.
func TestRead_ManifestStatusV1alpha1(t *testing.T) {
	objs := edited(t, "DeployItem", fixture.SettingsItemName, func(u *unstructured.Unstructured) {
		set(t, u, map[string]any{"apiVersion": "manifest.deployer.landscaper.gardener.cloud/v1alpha1", "kind": "ProviderStatus",
			"managedResources": []any{map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "name": "old", "namespace": targetNS}}},
			"status", "providerStatus")
	})
	got := read(t, objs).Root.Execution.DeployItems[0].Resources
	if len(got) != 1 || got[0].Name != "old" || got[0].Policy != "" || got[0].Kind != "ConfigMap" {
		t.Errorf("resources %+v", got)
	}
}

// A deploy item no template renders any more is reported, not dropped.
func TestRead_OrphanedDeployItem(t *testing.T) {
	const old = "shop-retired-x2x2x"
	objs := edited(t, "Execution", fixture.RootName, func(u *unstructured.Unstructured) {
		set(t, u, []any{old}, "status", "deployItemCache", "orphanedDIs")
	})
	retired := fixtureLandscape().Find("DeployItem", fixture.SettingsItemName)
	retired.SetName(old)
	got := read(t, append(objs, retired)).Root.Execution.Orphaned
	if !reflect.DeepEqual(got, []string{old}) {
		t.Errorf("orphaned %v", got)
	}
}

// Settled accepts what Landscaper left after a successful install and
// names every object that is not done.
func TestLandscape_Settled(t *testing.T) {
	if err := read(t, fixtureLandscape().Host).Settled(); err != nil {
		t.Fatalf("fixture: %v", err)
	}
	l := fixtureLandscape()
	cache := l.Find("DeployItem", fixture.CacheItemName)
	set(t, cache, "Failed", "status", "phase")
	set(t, cache, map[string]any{"message": "helm: s3cret"}, "status", "lastError")
	set(t, l.Find("Installation", fixture.SubName), "another-job", "status", "jobID")
	err := read(t, l.Host).Settled()
	if err == nil {
		t.Fatal("no error")
	}
	for _, want := range []string{
		"DeployItem landscape/" + fixture.CacheItemName + ` is in phase "Failed", not Succeeded; see its status.lastError`,
		"Installation landscape/" + fixture.SubName + " has not finished its job another-job",
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("%v\nlacks %q", err, want)
		}
	}
	if strings.Contains(err.Error(), "s3cret") {
		t.Errorf("quotes lastError: %v", err)
	}
}

// Whatever field of whatever object is missing or of another type, Read
// returns a landscape or an error; it never panics.
func TestRead_NoPanicOnDamagedObjects(t *testing.T) {
	base := fixtureLandscape()
	for i, obj := range base.Host {
		for _, path := range fieldPaths(obj.Object, nil, 3) {
			for _, replacement := range []any{nil, int64(7)} {
				objs := append([]*unstructured.Unstructured{}, base.Host...)
				target := obj.DeepCopy()
				objs[i] = target
				if replacement == nil {
					unstructured.RemoveNestedField(target.Object, path...)
				} else if setAt(target.Object, path, replacement) != nil {
					continue
				}
				func() {
					defer func() {
						if p := recover(); p != nil {
							t.Fatalf("%s %s, %v = %#v: panic %v", obj.GetKind(), obj.GetName(), path, replacement, p)
						}
					}()
					_, _ = landscaperstate.Read(context.Background(), fakeHost(objs), hostNS, fixture.RootName)
				}()
			}
		}
	}
}

// fieldPaths lists the paths into m down to depth, apiVersion, kind and
// name excepted (the fake API server needs them).
func fieldPaths(m map[string]any, prefix []string, depth int) [][]string {
	var out [][]string
	for k, v := range m {
		if len(prefix) == 0 && (k == "apiVersion" || k == "kind") || len(prefix) == 1 && prefix[0] == "metadata" && (k == "name" || k == "namespace") {
			continue
		}
		p := append(append([]string{}, prefix...), k)
		out = append(out, p)
		if sub, ok := v.(map[string]any); ok && depth > 1 {
			out = append(out, fieldPaths(sub, p, depth-1)...)
		}
	}
	return out
}

func setAt(m map[string]any, path []string, v any) error {
	return unstructured.SetNestedField(m, v, path...)
}
