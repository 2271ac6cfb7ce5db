package api

import (
	"encoding/json"
	"strings"
	"testing"
)

// oidcConfig and selfConfig Targets are refused with the reason and the
// alternative, never quoting the config; a kubeconfig next to them wins,
// as in Landscaper, and other targets are not this function's concern.
func TestUnsupportedClusterConfig(t *testing.T) {
	target := func(config string) Target {
		return NewTarget("ls", "", KubernetesClusterTargetType, json.RawMessage(config))
	}
	for config, want := range map[string]string{
		`{"oidcConfig": {"server": "https://api.example", "caData": "c2VjcmV0LWNh", "serviceAccount": {"name": "deployer"}, "audience": ["x"]}}`: `target "ls": config.oidcConfig is not supported`,
		`{"kubeconfig": "", "selfConfig": {"serviceAccount": {"name": "deployer"}, "expirationSeconds": 3600}}`:                                  `target "ls": config.selfConfig is not supported`,
		`{"kubeconfig": "apiVersion: v1", "selfConfig": {"serviceAccount": {"name": "deployer"}}}`:                                               "",
		`{"kubeconfig": ""}`: "",
		`"a string"`:         "",
	} {
		err := UnsupportedClusterConfig(target(config))
		switch {
		case want == "" && err != nil:
			t.Errorf("%s: %v", config, err)
		case want != "" && (err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "kubeconfig_from_provider")):
			t.Errorf("%s: %v, want %q and the alternative", config, err, want)
		case err != nil && (strings.Contains(err.Error(), "c2VjcmV0") || strings.Contains(err.Error(), "deployer")):
			t.Errorf("%s: the error quotes the config: %v", config, err)
		}
	}
	other := NewTarget("x", "", "example.com/other", json.RawMessage(`{"selfConfig": {}}`))
	if err := UnsupportedClusterConfig(other); err != nil {
		t.Errorf("another target type: %v", err)
	}
}
