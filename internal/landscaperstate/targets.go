package landscaperstate

import (
	"encoding/json"
	"fmt"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
)

// target converts a Target object; a config in a Secret is filled in
// once the Secrets are read.
func (r *reader) target(u *unstructured.Unstructured) (*api.Target, error) {
	var w wireTarget
	if err := decodeInto(u, &w); err != nil {
		return nil, err
	}
	t := &api.Target{APIVersion: APIVersion, Kind: "Target",
		Metadata: api.ObjectMeta{Name: w.Metadata.Name, Namespace: w.Metadata.Namespace, Labels: w.Metadata.Labels, Annotations: w.Metadata.Annotations},
		Spec:     api.TargetSpec{Type: w.Spec.Type, Config: w.Spec.Config}}
	if sr := w.Spec.SecretRef; sr != nil {
		ref := deployer.RefOf(u.Object)
		r.needSecret(sr.Name, func(s map[string]secretData) error {
			config, err := secretConfig(s[sr.Name], sr.Key, w.Spec.Type)
			if err != nil {
				return fmt.Errorf("%s: spec.secretRef: Secret %q: %w", ref, sr.Name, err)
			}
			t.Spec.Config = config
			return nil
		})
	}
	return t, nil
}

// secretConfig is a Target's config from its Secret, as Landscaper's
// target resolver reads it: the key's content (YAML or JSON), or without
// a key the whole Secret as an object. A kubernetes-cluster Target's key
// may hold the kubeconfig itself rather than a config with a kubeconfig
// field (Landscaper takes the content as the kubeconfig when it has no
// such field, as a Secret made for kubectl holds it); the config is then
// {"kubeconfig": <the content>}.
func secretConfig(data secretData, key, targetType string) (json.RawMessage, error) {
	if data == nil {
		return nil, fmt.Errorf("not found")
	}
	if key == "" {
		out := map[string]json.RawMessage{}
		for k, v := range data {
			if json.Valid(v) {
				out[k] = v
			} else {
				s, _ := json.Marshal(string(v))
				out[k] = s
			}
		}
		return json.Marshal(out)
	}
	v, ok := data[key]
	if !ok {
		return nil, fmt.Errorf("has no key %s", key)
	}
	j, err := yamlToJSON(v)
	isObject := err == nil && len(j) > 0 && j[0] == '{'
	if targetType == api.KubernetesClusterTargetType {
		var c struct {
			Kubeconfig json.RawMessage `json:"kubeconfig"`
		}
		if isObject && json.Unmarshal(j, &c) == nil && len(c.Kubeconfig) > 0 && string(c.Kubeconfig) != "null" {
			return j, nil
		}
		kubeconfig := string(v)
		var quoted string
		if err == nil && json.Unmarshal(j, &quoted) == nil {
			kubeconfig = quoted // a YAML or JSON string: its value
		}
		return json.Marshal(map[string]string{"kubeconfig": kubeconfig})
	}
	if !isObject {
		return nil, fmt.Errorf("key %s is not a target configuration (a YAML or JSON object)", key)
	}
	return j, nil
}
