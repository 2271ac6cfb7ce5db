package landscaperstate

import (
	"encoding/json"
	"fmt"

	"sigs.k8s.io/yaml"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
)

// wireProviderStatus is the providerStatus of the manifest deployer
// (v1alpha2: entries with policy and resource; v1alpha1: bare
// references) and of the Helm deployer (as v1alpha2).
type wireProviderStatus struct {
	APIVersion       string            `json:"apiVersion"`
	Kind             string            `json:"kind"`
	ManagedResources []json.RawMessage `json:"managedResources"`
}

type wireManagedResource struct {
	Policy               string            `json:"policy"`
	AnnotateBeforeDelete map[string]string `json:"annotateBeforeDelete"`
	PatchBeforeDelete    json.RawMessage   `json:"patchBeforeDelete"`
	Resource             *wireObjectRef    `json:"resource"`
}

type wireObjectRef struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Namespace  string `json:"namespace"`
	Name       string `json:"name"`
	UID        string `json:"uid"`
}

// manifestV1alpha1 is the old manifest deployer's status version, whose
// entries are references without a policy.
const manifestV1alpha1 = "manifest.deployer.landscaper.gardener.cloud/v1alpha1"

// deployed fills in what the item's deployer recorded: its resources,
// the Helm release and the label on the objects.
func deployed(item *DeployItem) error {
	switch item.Type {
	case deployer.ManifestType:
		item.OwnerLabel = Label{Key: deployer.LandscaperManifestItemLabel, Value: item.ObjectRef.Name}
	case deployer.HelmType:
		var c struct {
			Name           string `json:"name"`
			Namespace      string `json:"namespace"`
			HelmDeployment *bool  `json:"helmDeployment"`
		}
		if err := json.Unmarshal(item.Config, &c); err != nil {
			return fmt.Errorf("spec.config: not a Helm deployer configuration: %s", jsonErrorWithoutValues(err))
		}
		if c.HelmDeployment == nil || *c.HelmDeployment {
			item.Helm = &HelmRelease{Name: c.Name, Namespace: c.Namespace}
		} else {
			item.OwnerLabel = Label{Key: deployer.LandscaperHelmItemLabel, Value: item.ObjectRef.Name}
		}
	}
	if len(item.ProviderStatus) == 0 || string(item.ProviderStatus) == "null" {
		return nil
	}
	var ps wireProviderStatus
	if err := json.Unmarshal(item.ProviderStatus, &ps); err != nil {
		return fmt.Errorf("status.providerStatus: %s", jsonErrorWithoutValues(err))
	}
	for i, raw := range ps.ManagedResources {
		res, err := managedResource(ps.APIVersion, raw)
		if err != nil {
			return fmt.Errorf("status.providerStatus.managedResources[%d]: %w", i, err)
		}
		item.Resources = append(item.Resources, res)
	}
	return nil
}

func managedResource(apiVersion string, raw json.RawMessage) (Resource, error) {
	if apiVersion == manifestV1alpha1 {
		var ref wireObjectRef
		if err := json.Unmarshal(raw, &ref); err != nil {
			return Resource{}, fmt.Errorf("%s", jsonErrorWithoutValues(err))
		}
		return checkedResource(ref, Resource{})
	}
	var mr wireManagedResource
	if err := json.Unmarshal(raw, &mr); err != nil {
		return Resource{}, fmt.Errorf("%s", jsonErrorWithoutValues(err))
	}
	if mr.Resource == nil {
		return Resource{}, fmt.Errorf("resource: missing")
	}
	return checkedResource(*mr.Resource, Resource{Policy: mr.Policy, AnnotateBeforeDelete: mr.AnnotateBeforeDelete,
		PatchBeforeDelete: mr.PatchBeforeDelete})
}

func checkedResource(ref wireObjectRef, r Resource) (Resource, error) {
	if ref.Kind == "" || ref.Name == "" || ref.APIVersion == "" {
		return Resource{}, fmt.Errorf("resource: needs apiVersion, kind and name")
	}
	r.APIVersion, r.Kind, r.Namespace, r.Name, r.UID = ref.APIVersion, ref.Kind, ref.Namespace, ref.Name, ref.UID
	return r, nil
}

// yamlToJSON converts YAML or JSON text to JSON, never quoting it in an
// error (it may hold credentials).
func yamlToJSON(text []byte) (json.RawMessage, error) {
	j, err := yaml.YAMLToJSON(text)
	if err != nil {
		return nil, fmt.Errorf("neither YAML nor JSON")
	}
	return j, nil
}
