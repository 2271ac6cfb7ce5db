package landscaperstate_test

import (
	"context"
	"reflect"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/landscaperstate"
	fixture "github.com/landscaper-terraform/terraform-provider-landscaper/internal/testsupport/landscaperfixture"
)

// cacheItem is the "cache" Helm deploy item of a landscape read.
func cacheItem(t *testing.T, land *landscaperstate.Landscape) *landscaperstate.DeployItem {
	t.Helper()
	web := land.Root.Subinstallations[0]
	if web.Execution == nil || len(web.Execution.DeployItems) != 2 || web.Execution.DeployItems[1].Name != "cache" {
		t.Fatalf("web's deploy items: %+v", web.Execution)
	}
	return web.Execution.DeployItems[1]
}

// TestRead_HelmManifests: a Helm deploy item with helmDeployment: false
// has no release; its objects are every rendered object of the chart,
// with policy manage, labelled with the Helm deployer's deploy item label.
func TestRead_HelmManifests(t *testing.T) {
	l := fixture.Build(fixture.Options{Namespace: hostNS, TargetNamespace: targetNS, Kubeconfig: kubecfg, HelmManifests: true})
	if l.Release.Name != "" {
		t.Fatalf("the variant has a Helm release %s", l.Release.Name)
	}
	cache := cacheItem(t, read(t, l.Host))
	if cache.Helm != nil {
		t.Errorf("cache release = %+v, want none", cache.Helm)
	}
	if cache.OwnerLabel != (landscaperstate.Label{Key: deployer.LandscaperHelmItemLabel, Value: fixture.CacheItemName}) {
		t.Errorf("cache owner label = %+v", cache.OwnerLabel)
	}
	want := []landscaperstate.Resource{
		{APIVersion: "v1", Kind: "ConfigMap", Namespace: targetNS, Name: fixture.ReleaseName + "-config", Policy: "manage"},
		{APIVersion: "apps/v1", Kind: "Deployment", Namespace: targetNS, Name: fixture.ReleaseName, Policy: "manage"},
	}
	if !reflect.DeepEqual(cache.Resources, want) {
		t.Errorf("cache resources = %+v, want %+v", cache.Resources, want)
	}
	if !strings.Contains(string(cache.Config), `"helmDeployment":false`) {
		t.Errorf("cache config without helmDeployment false: %.200s", cache.Config)
	}
	// The rendered objects are what the chart renders with the values.
	var deployed []string
	for _, o := range l.Deployed {
		if o.GetLabels()[fixture.HelmDeployItemLabel] == fixture.CacheItemName {
			deployed = append(deployed, o.GetKind()+"/"+o.GetName())
			if data, _ := o.Object["data"].(map[string]any); o.GetKind() == "ConfigMap" && data["message"] != fixture.Greeting {
				t.Errorf("rendered ConfigMap data %v, want the configured message", o.Object["data"])
			}
		}
	}
	if strings.Join(deployed, " ") != "ConfigMap/shop-cache-config Deployment/shop-cache" {
		t.Errorf("deployed chart objects %v", deployed)
	}
}

// TestRead_HelmManifestsFromCluster: the variant created in a real API
// server reads back with the chart's objects deployed, carrying both
// deploy item labels and the UIDs the deployer recorded, and no release.
func TestRead_HelmManifestsFromCluster(t *testing.T) {
	installed, client, land := readInstalled(t, fixture.Options{HelmManifests: true})
	ctx := context.Background()
	if err := land.Settled(); err != nil {
		t.Errorf("Settled: %v", err)
	}
	cache := cacheItem(t, land)
	if cache.Helm != nil || len(cache.Resources) != 2 {
		t.Fatalf("cache: release %+v, resources %+v", cache.Helm, cache.Resources)
	}
	for _, r := range cache.Resources {
		res := map[string]string{"ConfigMap": "configmaps", "Deployment": "deployments"}[r.Kind]
		gv, err := schema.ParseGroupVersion(r.APIVersion)
		if err != nil {
			t.Fatal(err)
		}
		obj, err := client.Resource(gv.WithResource(res)).Namespace(r.Namespace).Get(ctx, r.Name, metav1.GetOptions{})
		if err != nil {
			t.Errorf("%s %s: %v", r.Kind, r.Name, err)
			continue
		}
		l := obj.GetLabels()
		if r.UID == "" || string(obj.GetUID()) != r.UID || l[cache.OwnerLabel.Key] != cache.OwnerLabel.Value ||
			l[fixture.ManifestDeployItemLabel] != fixture.CacheItemName {
			t.Errorf("%s %s: UID %s (recorded %q), labels %v", r.Kind, r.Name, obj.GetUID(), r.UID, l)
		}
	}
	secrets, err := client.Resource(schema.GroupVersionResource{Version: "v1", Resource: "secrets"}).Namespace(installed.TargetNamespace).
		List(ctx, metav1.ListOptions{LabelSelector: "owner=helm"})
	if err != nil || len(secrets.Items) != 0 {
		t.Errorf("Helm release records in the target namespace: %v, %d", err, len(secrets.Items))
	}
}
