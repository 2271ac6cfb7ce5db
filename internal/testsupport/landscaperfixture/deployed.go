package landscaperfixture

import (
	"fmt"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/yaml"
)

// The deploy items' configurations, as the blueprints render them with
// the landscape's imports.

func (b *builder) settingsConfigMap() object {
	return object{
		"apiVersion": "v1", "kind": "ConfigMap",
		"metadata": object{"name": SettingsConfigMap, "namespace": b.opts.TargetNamespace},
		"data":     object{"greeting": MappedGreeting, "replicas": fmt.Sprint(Replicas)},
	}
}

func (b *builder) webDeployment() object {
	labels := object{"app": WebDeployment}
	return object{
		"apiVersion": "apps/v1", "kind": "Deployment",
		"metadata": object{"name": WebDeployment, "namespace": b.opts.TargetNamespace},
		"spec": object{
			"replicas": Replicas,
			"selector": object{"matchLabels": labels},
			"template": object{
				"metadata": object{"labels": labels},
				"spec": object{"containers": []any{
					object{"name": "web", "image": "registry.example/shop/web:1.4.2"},
				}},
			},
		},
	}
}

func (b *builder) settingsConfig() object {
	return object{
		"apiVersion":     "manifest.deployer.landscaper.gardener.cloud/v1alpha2",
		"kind":           "ProviderConfiguration",
		"updateStrategy": "update",
		"manifests":      []any{object{"policy": "manage", "manifest": b.settingsConfigMap()}},
		"exports": object{"exports": []any{object{
			"key": "greeting", "jsonPath": ".data.greeting",
			"fromResource": object{"apiVersion": "v1", "kind": "ConfigMap", "name": SettingsConfigMap, "namespace": b.opts.TargetNamespace},
		}}},
	}
}

func (b *builder) appConfig() object {
	return object{
		"apiVersion":     "manifest.deployer.landscaper.gardener.cloud/v1alpha2",
		"kind":           "ProviderConfiguration",
		"updateStrategy": "update",
		"manifests":      []any{object{"policy": "manage", "manifest": b.webDeployment()}},
	}
}

func (b *builder) cacheValues() object { return object{"message": Greeting} }

func (b *builder) cacheConfig() object {
	c := object{
		"apiVersion":      "helm.deployer.landscaper.gardener.cloud/v1alpha1",
		"kind":            "ProviderConfiguration",
		"name":            ReleaseName,
		"namespace":       b.opts.TargetNamespace,
		"createNamespace": false,
		"chart":           object{"archive": object{"raw": chartBase64()}},
		"values":          b.cacheValues(),
	}
	if b.opts.HelmManifests {
		c["helmDeployment"] = false
	}
	return c
}

func (b *builder) release() Release {
	return Release{Name: ReleaseName, Namespace: b.opts.TargetNamespace, Values: b.cacheValues(), Chart: ChartArchive()}
}

// resource is a managedResources entry: the object and the policy it
// was applied with (the real Helm deployer records no policy).
func resource(apiVersion, kind, namespace, name, policy string) object {
	r := object{"resource": object{"apiVersion": apiVersion, "kind": kind, "namespace": namespace, "name": name}}
	if policy != "" {
		r["policy"] = policy
	}
	return r
}

func (b *builder) settingsResources() []any {
	return []any{resource("v1", "ConfigMap", b.opts.TargetNamespace, SettingsConfigMap, "manage")}
}

func (b *builder) appResources() []any {
	return []any{resource("apps/v1", "Deployment", b.opts.TargetNamespace, WebDeployment, "manage")}
}

// cacheResources lists what Landscaper's Helm deployer records: of a
// release it installed with Helm only the kinds its default readiness
// check looks at (here the Deployment, not the ConfigMap); of a chart it
// applied as manifests every object, with policy manage.
func (b *builder) cacheResources() []any {
	if !b.opts.HelmManifests {
		return []any{resource("apps/v1", "Deployment", b.opts.TargetNamespace, ReleaseName, "")}
	}
	var out []any
	for _, o := range renderedChart(b.release()) {
		md, _ := o["metadata"].(map[string]any)
		out = append(out, resource(fmt.Sprint(o["apiVersion"]), fmt.Sprint(o["kind"]), b.opts.TargetNamespace, fmt.Sprint(md["name"]), "manage"))
	}
	return out
}

func manifestStatus(resources []any) object {
	return object{"apiVersion": "manifest.deployer.landscaper.gardener.cloud/v1alpha2", "kind": "ProviderStatus",
		"managedResources": resources}
}

func helmStatus(resources []any) object {
	return object{"apiVersion": "helm.deployer.landscaper.gardener.cloud/v1alpha1", "kind": "ProviderStatus",
		"managedResources": resources}
}

// deployed is what the manifest deployer applied, with the label it
// puts on every object it manages, and with HelmManifests the chart's
// objects the Helm deployer applied, with both deployers' labels.
func (b *builder) deployed() []*unstructured.Unstructured {
	var out []*unstructured.Unstructured
	add := func(obj object, labels map[string]string) {
		u := &unstructured.Unstructured{Object: jsonRoundTrip(obj)}
		u.SetLabels(labels)
		out = append(out, u)
	}
	add(b.settingsConfigMap(), map[string]string{ManifestDeployItemLabel: SettingsItemName})
	add(b.webDeployment(), map[string]string{ManifestDeployItemLabel: AppItemName})
	if b.opts.HelmManifests {
		for _, o := range renderedChart(b.release()) {
			add(o, map[string]string{ManifestDeployItemLabel: CacheItemName, HelmDeployItemLabel: CacheItemName})
		}
	}
	return out
}

func mustYAMLObject(text string) object {
	out := object{}
	if err := yaml.Unmarshal([]byte(text), &out); err != nil {
		panic(err)
	}
	return out
}
