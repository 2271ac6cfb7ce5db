package landscaperstate_test

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	dynamicfake "k8s.io/client-go/dynamic/fake"
	"sigs.k8s.io/yaml"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/landscaperstate"
	fixture "github.com/landscaper-terraform/terraform-provider-landscaper/internal/testsupport/landscaperfixture"
)

const (
	hostNS   = "landscape"
	targetNS = "shop-prod"
	kubecfg  = "apiVersion: v1\nkind: Config\nclusters: []\n"
)

func fixtureLandscape() *fixture.Landscape {
	return fixture.Build(fixture.Options{Namespace: hostNS, TargetNamespace: targetNS, Kubeconfig: kubecfg})
}

// fakeHost serves objects like a host cluster's API server would.
func fakeHost(objs []*unstructured.Unstructured) *dynamicfake.FakeDynamicClient {
	lists := map[schema.GroupVersionResource]string{}
	for _, r := range []string{"installations", "executions", "deployitems", "dataobjects", "targets", "contexts"} {
		lists[schema.GroupVersionResource{Group: landscaperstate.Group, Version: landscaperstate.Version, Resource: r}] = "List"
	}
	lists[schema.GroupVersionResource{Version: "v1", Resource: "secrets"}] = "SecretList"
	rt := make([]runtime.Object, 0, len(objs))
	for _, o := range objs {
		rt = append(rt, o.DeepCopy())
	}
	return dynamicfake.NewSimpleDynamicClientWithCustomListKinds(runtime.NewScheme(), lists, rt...)
}

func read(t *testing.T, objs []*unstructured.Unstructured) *landscaperstate.Landscape {
	t.Helper()
	land, err := landscaperstate.Read(context.Background(), fakeHost(objs), hostNS, fixture.RootName)
	if err != nil {
		t.Fatalf("Read: %v", err)
	}
	return land
}

// TestRead_Tree: the root, its subinstallation by spec name, the
// Executions and their deploy items in template order.
func TestRead_Tree(t *testing.T) {
	land := read(t, fixtureLandscape().Host)
	root := land.Root
	if root.Name != fixture.RootName || root.Phase != "Succeeded" || root.JobID != fixture.JobID || root.JobIDFinished != fixture.JobID {
		t.Fatalf("root = %+v", root.ObjectRef)
	}
	if len(root.Subinstallations) != 1 || root.Subinstallations[0].SpecName != "web" || root.Subinstallations[0].Name != fixture.SubName {
		t.Fatalf("subinstallations = %+v", root.Subinstallations)
	}
	if got := itemNames(root.Execution); got != "settings="+fixture.SettingsItemName {
		t.Errorf("root items = %s", got)
	}
	web := root.Subinstallations[0]
	if got := itemNames(web.Execution); got != "app="+fixture.AppItemName+" cache="+fixture.CacheItemName {
		t.Errorf("web items = %s", got)
	}
	cache := web.Execution.DeployItems[1]
	if strings.Join(cache.DependsOn, ",") != "app" || cache.Type != landscaperstate.HelmType {
		t.Errorf("cache = dependsOn %v, type %s", cache.DependsOn, cache.Type)
	}
}

func itemNames(e *landscaperstate.Execution) string {
	if e == nil {
		return "<no execution>"
	}
	var parts []string
	for _, di := range e.DeployItems {
		parts = append(parts, di.Name+"="+di.ObjectRef.Name)
	}
	return strings.Join(parts, " ")
}

// TestRead_WhatIsDeployedWhere: each item's resources, owner label, Helm
// release, target and exports come from its DeployItem.
func TestRead_WhatIsDeployedWhere(t *testing.T) {
	land := read(t, fixtureLandscape().Host)
	settings := land.Root.Execution.DeployItems[0]
	if len(settings.Resources) != 1 || !reflect.DeepEqual(settings.Resources[0], landscaperstate.Resource{
		APIVersion: "v1", Kind: "ConfigMap", Namespace: targetNS, Name: fixture.SettingsConfigMap, Policy: "manage"}) {
		t.Errorf("settings resources = %+v", settings.Resources)
	}
	if settings.OwnerLabel != (landscaperstate.Label{Key: deployer.LandscaperManifestItemLabel, Value: fixture.SettingsItemName}) {
		t.Errorf("settings owner label = %+v", settings.OwnerLabel)
	}
	if settings.TargetName != fixture.TargetName || settings.Target == nil || !strings.Contains(string(settings.Target.Spec.Config), "kubeconfig") {
		t.Errorf("settings target = %q %+v", settings.TargetName, settings.Target)
	}
	assertJSON(t, "settings exports", settings.Exports, `{"greeting": "Welcome from the shop"}`)
	assertJSON(t, "root execution exports", land.Root.Execution.Exports, `{"settings": {"greeting": "Welcome from the shop"}}`)

	web := land.Root.Subinstallations[0]
	cache := web.Execution.DeployItems[1]
	if cache.Helm == nil || *cache.Helm != (landscaperstate.HelmRelease{Name: fixture.ReleaseName, Namespace: targetNS}) {
		t.Errorf("cache release = %+v", cache.Helm)
	}
	if cache.OwnerLabel != (landscaperstate.Label{}) || cache.Exports != nil {
		t.Errorf("cache owner label %+v, exports %s", cache.OwnerLabel, cache.Exports)
	}
	if len(cache.Resources) != 1 || cache.Resources[0].Kind != "Deployment" || cache.Resources[0].Policy != "" {
		t.Errorf("cache resources = %+v", cache.Resources)
	}
	var config struct {
		Chart struct{ Archive struct{ Raw string } }
	}
	if err := json.Unmarshal(cache.Config, &config); err != nil || config.Chart.Archive.Raw == "" {
		t.Errorf("cache config: %v %s", err, cache.Config)
	}
	if web.Execution.DeployItems[0].TargetName != landscaperstate.DataObjectName(landscaperstate.InstallationContext(fixture.RootName), "cluster") {
		t.Errorf("app target = %s", web.Execution.DeployItems[0].TargetName)
	}
}

// TestRead_ImportsAndExports: what Landscaper recorded per installation.
func TestRead_ImportsAndExports(t *testing.T) {
	land := read(t, fixtureLandscape().Host)
	root, web := land.Root, land.Root.Subinstallations[0]
	assertJSON(t, "root greeting", root.Imports["greeting"], `"Welcome from the shop"`)
	assertJSON(t, "root namespace", root.Imports["namespace"], `"`+targetNS+`"`)
	assertJSON(t, "web settings", web.Imports["settings"], `{"greeting": "Welcome", "replicas": 2}`)
	if len(root.ImportedTargets["cluster"]) != 1 || len(web.ImportedTargets["cluster"]) != 1 {
		t.Errorf("imported targets: root %d, web %d", len(root.ImportedTargets["cluster"]), len(web.ImportedTargets["cluster"]))
	}
	assertJSON(t, "root url export", root.Exports[fixture.URLDataObject], `"http://shop-web.`+targetNS+`.svc"`)
	assertJSON(t, "web url export", web.Exports["web-url"], `"http://shop-web.`+targetNS+`.svc"`)
}

// TestRead_Manifest: the root as kept in git, and the objects it imports.
func TestRead_Manifest(t *testing.T) {
	land := read(t, fixtureLandscape().Host)
	var inst map[string]any
	if err := yaml.Unmarshal([]byte(land.Manifest), &inst); err != nil {
		t.Fatal(err)
	}
	if _, has := inst["status"]; has {
		t.Error("manifest has a status")
	}
	md := inst["metadata"].(map[string]any)
	if md["name"] != fixture.RootName || md["namespace"] != hostNS || len(md) != 2 {
		t.Errorf("metadata = %v", md)
	}
	spec := inst["spec"].(map[string]any)
	if spec["importDataMappings"] == nil || spec["exportDataMappings"] == nil || spec["blueprint"] == nil {
		t.Errorf("spec lost fields: %v", spec)
	}
	docs := strings.Split(land.ManifestObjects, "---\n")
	var kinds []string
	for _, d := range docs {
		var o map[string]any
		if err := yaml.Unmarshal([]byte(d), &o); err != nil {
			t.Fatal(err)
		}
		kinds = append(kinds, o["kind"].(string)+"/"+o["metadata"].(map[string]any)["name"].(string))
	}
	want := "DataObject/" + fixture.NamespaceDataObject + " DataObject/" + fixture.SettingsDataObject + " Target/" + fixture.TargetName
	if strings.Join(kinds, " ") != want {
		t.Errorf("objects = %v, want %s", kinds, want)
	}
}

func assertJSON(t *testing.T, what string, got json.RawMessage, want string) {
	t.Helper()
	var g, w any
	if err := json.Unmarshal(got, &g); err != nil {
		t.Errorf("%s: %v (%s)", what, err, got)
		return
	}
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		t.Fatal(err)
	}
	gj, _ := json.Marshal(g)
	wj, _ := json.Marshal(w)
	if string(gj) != string(wj) {
		t.Errorf("%s = %s, want %s", what, gj, wj)
	}
}
