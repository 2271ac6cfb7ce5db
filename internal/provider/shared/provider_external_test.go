package shared

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer/external"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer/mock"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/hostaccess"
)

// entries is external_deployers' value of models.
func entries(t *testing.T, models ...externalDeployerModel) types.List {
	t.Helper()
	attrs := map[string]schema.Attribute{}
	ExternalDeployersAttribute(attrs)
	elem := attrs[externalDeployersAttr].GetType().(types.ListType).ElemType
	l, diags := types.ListValueFrom(context.Background(), elem, models)
	if diags.HasError() {
		t.Fatal(diags)
	}
	return l
}

func entry(namespace string, itemTypes []string, targets ...string) externalDeployerModel {
	m := externalDeployerModel{Namespace: types.StringValue(namespace), Kubeconfig: types.StringNull(),
		Targets: types.ListNull(types.StringType), TargetLabels: types.MapNull(types.StringType)}
	m.Types, _ = types.ListValueFrom(context.Background(), types.StringType, itemTypes)
	if len(targets) > 0 {
		m.Targets, _ = types.ListValueFrom(context.Background(), types.StringType, targets)
	}
	return m
}

// Named types get a router in front of the built-in deployer (if any); a
// type handed out twice for every target, a type named twice in one entry
// and a namespace that is no name are configuration errors; an unknown
// type's error says how to name it.
func TestHandOut(t *testing.T) {
	ctx := context.Background()
	const custom = "example.com/custom"
	d := NewProviderData("test", hostaccess.HostSettings{}, nil, SecuritySettings{}, Tuning{})
	diags := d.handOut(ctx, entries(t, entry("fenced", []string{mock.Type}, "inner"), entry("items", []string{custom, mock.Type})), hostaccess.HostSettings{})
	if diags.HasError() {
		t.Fatalf("valid entries: %v", diags)
	}
	for _, itemType := range []string{custom, mock.Type} {
		if dep, err := d.Engine.Deployers.Lookup(itemType); err != nil {
			t.Errorf("%s: %v", itemType, err)
		} else if _, ok := dep.(*external.Router); !ok {
			t.Errorf("%s is served by %T, want the router", itemType, dep)
		}
	}
	if err := d.Engine.Deployers.Validate(custom, []byte(`{"kind": "X"}`)); err == nil || !strings.Contains(err.Error(), "apiVersion") {
		t.Errorf("an external item's config without apiVersion: %v", err)
	}
	_, err := d.Engine.Deployers.Lookup("example.com/other")
	if err == nil || !strings.Contains(err.Error(), "name the type in the provider's external_deployers") {
		t.Errorf("unknown type: %v", err)
	}

	for name, models := range map[string][]externalDeployerModel{
		"twice for every target": {entry("a", []string{custom}), entry("b", []string{custom}, "x")},
		"twice in one entry":     {entry("a", []string{custom, custom})},
		"empty type":             {entry("a", []string{""})},
		"bad namespace":          {entry("Not_A_Name", []string{custom})},
	} {
		d := NewProviderData("test", hostaccess.HostSettings{}, nil, SecuritySettings{}, Tuning{})
		if diags := d.handOut(ctx, entries(t, models...), hostaccess.HostSettings{}); !diags.HasError() {
			t.Errorf("%s: accepted", name)
		}
	}
}

func TestDeployItemTimeouts(t *testing.T) {
	s := types.StringValue
	got, diags := (&deployItemTimeoutsModel{Pickup: s("none"), Abort: s("45s"), ProgressingDefault: types.StringNull()}).parse()
	if diags.HasError() || got.pickup != -1 || got.abort != 45*time.Second || got.progressing != 0 {
		t.Errorf("parse = %+v, %v", got, diags)
	}
	for name, m := range map[string]deployItemTimeoutsModel{
		"abort none":    {Pickup: types.StringNull(), Abort: s("none"), ProgressingDefault: types.StringNull()},
		"negative":      {Pickup: s("-1s"), Abort: types.StringNull(), ProgressingDefault: types.StringNull()},
		"not duration":  {Pickup: types.StringNull(), Abort: types.StringNull(), ProgressingDefault: s("ten minutes")},
		"zero progress": {Pickup: types.StringNull(), Abort: types.StringNull(), ProgressingDefault: s("0s")},
	} {
		if _, diags := m.parse(); !diags.HasError() {
			t.Errorf("%s: accepted", name)
		}
	}
	var none *deployItemTimeoutsModel
	if got, diags := none.parse(); diags.HasError() || got != (deployItemTimeouts{}) {
		t.Errorf("no block: %+v %v", got, diags)
	}
}
