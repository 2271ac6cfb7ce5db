package external

import (
	"context"
	"encoding/base64"
	"reflect"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	dynamicfake "k8s.io/client-go/dynamic/fake"
)

// exportSecret is a Secret holding exports {"url": "x"}, owned by the
// objects with the given UIDs.
func exportSecret(ns, name string, owners ...types.UID) *unstructured.Unstructured {
	refs := []any{}
	for _, uid := range owners {
		refs = append(refs, map[string]any{"apiVersion": DeployItems.GroupVersion().String(), "kind": "DeployItem", "name": "di", "uid": string(uid)})
	}
	return &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "v1", "kind": "Secret",
		"metadata": map[string]any{"name": name, "namespace": ns, "ownerReferences": refs},
		"data":     map[string]any{ExportKey: base64.StdEncoding.EncodeToString([]byte(`{"url":"x"}`))},
	}}
}

// succeeded is a DeployItem of namespace home whose deployer claims its
// exports are in the Secret ns/name.
func succeeded(home, ns, name string) *unstructured.Unstructured {
	ref := map[string]any{"name": name}
	if ns != "" {
		ref["namespace"] = ns
	}
	di := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": DeployItems.GroupVersion().String(), "kind": "DeployItem",
		"metadata": map[string]any{"name": "di", "namespace": home, "uid": "di-uid"},
		"status":   map[string]any{"phase": phaseSucceeded, "exportRef": ref},
	}}
	return di
}

// A DeployItem's status.exportRef is a claim of whoever may write
// DeployItems: the provider reads the export Secret with its own
// credentials, so it follows the reference only into the DeployItem's own
// namespace and only to a Secret the DeployItem owns (by UID).
func TestResult_ExportRefOnlyOwnSecret(t *testing.T) {
	objs := []runtime.Object{
		exportSecret("home", "owned", "di-uid"),
		exportSecret("home", "unowned"),
		exportSecret("home", "other-owner", "another-uid"),
		exportSecret("kube-system", "foreign", "di-uid"),
	}
	d := &Deployer{client: dynamicfake.NewSimpleDynamicClient(runtime.NewScheme(), objs...)}
	for _, tc := range []struct {
		name, ns, secret string
		ok               bool
	}{
		{"own namespace implied", "", "owned", true},
		{"own namespace named", "home", "owned", true},
		{"another namespace", "kube-system", "foreign", false},
		{"not owned", "", "unowned", false},
		{"owned by another object", "home", "other-owner", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			exports, err := d.result(context.Background(), succeeded("home", tc.ns, tc.secret))
			if tc.ok {
				if err != nil || !reflect.DeepEqual(exports, map[string]any{"url": "x"}) {
					t.Fatalf("exports = %v, %v; want {url: x}", exports, err)
				}
				return
			}
			if err == nil || exports != nil {
				t.Fatalf("exports = %v, err = %v; want a refusal", exports, err)
			}
		})
	}
}
