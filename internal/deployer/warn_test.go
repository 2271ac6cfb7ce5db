package deployer

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// TestConfigFieldWarnings: one decode gives every unknown field under the
// shape of the configuration's apiVersion (found as encoding/json finds a
// struct field, case folded) and the continuousReconcile warning when it
// is set; a configuration that does not decode exactly still gets the
// latter from the lenient decoder, as before.
func TestConfigFieldWarnings(t *testing.T) {
	type v2 struct {
		APIVersion          string `json:"apiVersion"`
		Manifests           []any  `json:"manifests"`
		ContinuousReconcile any    `json:"continuousReconcile"`
	}
	type v1 struct {
		APIVersion string `json:"apiVersion"`
		Old        string `json:"old"`
	}
	shapeOf := func(apiVersion string) reflect.Type {
		if strings.HasSuffix(apiVersion, "/v1alpha1") {
			return reflect.TypeOf(v1{})
		}
		return reflect.TypeOf(v2{})
	}
	unknown := func(path string) string {
		return path + ": unknown field of the test configuration, ignored: neither Landscaper's deployer nor the provider reads it"
	}
	for _, tc := range []struct {
		config string
		want   []string
	}{
		{`{"apiVersion":"x/v1alpha2","manifests":[]}`, nil},
		{`{"apiVersion":"x/v1alpha2","old":"y"}`, []string{unknown("config.old")}},
		{`{"apiVersion":"x/v1alpha1","old":"y"}`, nil},
		{`{"APIVERSION":"x/v1alpha1","old":"y"}`, []string{unknown("config.APIVERSION")}},
		{`{"apiVersion":"x/v1alpha1","manifests":[]}`, []string{unknown("config.manifests")}},
		{`{"apiVersion":"x/v1alpha2","continuousReconcile":{"every":"1h"}}`, []string{ContinuousReconcileWarning}},
		{`{"apiVersion":"x/v1alpha2","continuousReconcile":null}`, nil},
		{`{"continuousReconcile":{"every":"1h"},"manifests":[1e999]}`, []string{ContinuousReconcileWarning}},
		{`not json`, nil},
	} {
		got := ConfigFieldWarnings(json.RawMessage(tc.config), shapeOf, "the test configuration")
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s:\n got %q\nwant %q", tc.config, got, tc.want)
		}
	}
}
