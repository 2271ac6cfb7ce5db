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
	return object{
		"apiVersion":      "helm.deployer.landscaper.gardener.cloud/v1alpha1",
		"kind":            "ProviderConfiguration",
		"name":            ReleaseName,
		"namespace":       b.opts.TargetNamespace,
		"createNamespace": false,
		"chart":           object{"archive": object{"raw": chartBase64()}},
		"values":          b.cacheValues(),
	}
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

// cacheResources lists what Landscaper's Helm deployer records of a
// release it installed with Helm: only the kinds its default readiness
// check looks at (here the Deployment, not the ConfigMap).
func (b *builder) cacheResources() []any {
	return []any{resource("apps/v1", "Deployment", b.opts.TargetNamespace, ReleaseName, "")}
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
// puts on every object it manages.
func (b *builder) deployed() []*unstructured.Unstructured {
	out := []*unstructured.Unstructured{}
	for item, obj := range map[string]object{SettingsItemName: b.settingsConfigMap(), AppItemName: b.webDeployment()} {
		u := &unstructured.Unstructured{Object: jsonRoundTrip(obj)}
		u.SetLabels(map[string]string{ManifestDeployItemLabel: item})
		out = append(out, u)
	}
	if out[0].GetKind() != "ConfigMap" {
		out[0], out[1] = out[1], out[0]
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
