package external

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer/mock"
)

func namedTarget(name string, labels map[string]string) *api.Target {
	t := api.NewTarget(name, "", api.KubernetesClusterTargetType, json.RawMessage(`{"kubeconfig":"x"}`))
	t.Metadata.Labels = labels
	return &t
}

// Selectors pick by name and labels; the empty one picks everything.
func TestTargetSelector(t *testing.T) {
	inner := namedTarget("a", map[string]string{"zone": "inner", "tier": "db"})
	for _, tc := range []struct {
		sel  TargetSelector
		t    *api.Target
		want bool
	}{
		{TargetSelector{}, nil, true},
		{TargetSelector{}, inner, true},
		{TargetSelector{Names: []string{"b", "a"}}, inner, true},
		{TargetSelector{Names: []string{"b"}}, inner, false},
		{TargetSelector{Labels: map[string]string{"zone": "inner"}}, inner, true},
		{TargetSelector{Labels: map[string]string{"zone": "inner", "tier": "web"}}, inner, false},
		{TargetSelector{Names: []string{"a"}, Labels: map[string]string{"zone": "outer"}}, inner, false},
		{TargetSelector{Names: []string{"a"}}, nil, false},
	} {
		if got := tc.sel.Matches(tc.t); got != tc.want {
			t.Errorf("%+v matches %v = %v, want %v", tc.sel, tc.t, got, tc.want)
		}
	}
}

// A router sends an item to the first route whose selector picks its
// target, else to the built-in deployer; what an item deployed is deleted
// by the deployer whose provider status it holds; the home is the
// external deployer's; a plan shows an external item by its config.
func TestRouter(t *testing.T) {
	home := func(ns string) func() (Connection, error) {
		return func() (Connection, error) { return Connection{Home: namedTarget("home-"+ns, nil)}, nil }
	}
	fenced := New(Options{Namespace: "fenced", Connect: home("fenced")})
	other := New(Options{Namespace: "other", Connect: home("other")})
	builtin := mock.New()
	r := NewRouter(mock.Type, builtin,
		Route{Select: TargetSelector{Labels: map[string]string{"zone": "inner"}}, Deployer: fenced},
		Route{Select: TargetSelector{Names: []string{"b"}}, Deployer: other})
	item := func(t *api.Target, status string) deployer.Item {
		it := deployer.Item{ID: "root/x", Name: "x", Type: mock.Type, Target: t, Config: json.RawMessage(`{"apiVersion":"a/v1","kind":"K"}`)}
		if status != "" {
			it.ProviderStatus = json.RawMessage(status)
		}
		return it
	}
	inner, b, plain := namedTarget("a", map[string]string{"zone": "inner"}), namedTarget("b", nil), namedTarget("c", nil)
	for _, tc := range []struct {
		name string
		item deployer.Item
		pick deployer.Deployer
		home string
	}{
		{"by label", item(inner, ""), fenced, "home-fenced"},
		{"by name", item(b, ""), other, "home-other"},
		{"built in", item(plain, ""), builtin, ""},
		{"no target", item(nil, ""), builtin, ""},
	} {
		got, err := r.pick(tc.item)
		if err != nil || got != tc.pick {
			t.Errorf("%s: picked %T %v", tc.name, got, err)
		}
		h, err := r.Home(tc.item)
		if err != nil || (h == nil) != (tc.home == "") || (h != nil && h.Metadata.Name != tc.home) {
			t.Errorf("%s: home %v, %v", tc.name, h, err)
		}
	}
	// Deleted by whoever deployed it: an external status names its namespace.
	for _, tc := range []struct {
		status string
		owner  deployer.Deployer
	}{
		{`{"apiVersion":"` + StatusAPIVersion + `","namespace":"other","name":"x"}`, other},
		{`{"apiVersion":"` + StatusAPIVersion + `","namespace":"fenced","name":"x"}`, fenced},
		{`{"apiVersion":"mock/v1"}`, builtin},
	} {
		if got, err := r.owner(item(plain, tc.status)); err != nil || got != tc.owner {
			t.Errorf("status %s: owner %T %v", tc.status, got, err)
		}
	}
	if err := r.Delete(context.Background(), item(inner, `{"deployed":true}`), deployer.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	if ev := builtin.Events(); len(ev) == 0 || ev[len(ev)-1].Op != "delete" {
		t.Errorf("a built-in status was not deleted by the built-in deployer: %v", ev)
	}
	pv, err := r.Preview(context.Background(), deployer.PreviewRequest{Item: item(inner, "")})
	if err != nil || len(pv.Objects) != 1 || pv.Objects[0].Object["kind"] != "DeployItem" {
		t.Errorf("preview of an external item = %+v, %v", pv, err)
	}
	// Without a built-in deployer an item no route picks is refused.
	only := NewRouter("example.com/x", nil, Route{Select: TargetSelector{Names: []string{"a"}}, Deployer: fenced})
	if _, err := only.Apply(context.Background(), item(plain, "")); err == nil {
		t.Error("an item no route picks was applied")
	}
}
