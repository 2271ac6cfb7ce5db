package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"math/big"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/provider/shared"
)

// The provider's side of a Terraform command at scale, without a cluster
// and without the CLI: the plugin protocol calls Terraform makes for one
// landscaper_installation of N mock deploy items, served in-process, so
// the framework's work on deploy_items, ModifyPlan, the private-state
// snapshot and the config hashes are measured together and can be
// profiled (`go test -run '^$' -bench Installation -cpuprofile cpu.out
// ./internal/provider/`). The whole-command figures are tools/bench/run.sh's.
//
//	Create       PlanResourceChange (create) + ApplyResourceChange
//	NoOpPlan     UpgradeResourceState + ReadResource + ValidateResourceConfig + PlanResourceChange
//	             of the created installation, unchanged: a no-op `terraform plan`
func BenchmarkInstallation(b *testing.B) {
	for _, n := range []int{20, 1000} {
		b.Run(fmt.Sprintf("%dItems/Create", n), func(b *testing.B) {
			s := newBenchServer(b, n)
			b.ReportAllocs()
			for b.Loop() {
				s.create(b)
			}
		})
		b.Run(fmt.Sprintf("%dItems/NoOpPlan", n), func(b *testing.B) {
			s := newBenchServer(b, n)
			r := s.prepareNoOp(b, s.create(b))
			s.expectEmpty(b, r, s.noOpPlan(b, r))
			b.ReportAllocs()
			for b.Loop() {
				s.noOpPlan(b, r)
			}
		})
	}
}

const benchResource = "landscaper_installation"

// benchServer is one provider instance, configured, and the configuration
// of an installation with items mock deploy items.
type benchServer struct {
	ctx    context.Context
	srv    tfprotov6.ProviderServer
	typ    tftypes.Object
	config *tftypes.Value
	raw    *tfprotov6.DynamicValue
}

// benchState is what ApplyResourceChange returned.
type benchState struct {
	state   *tfprotov6.DynamicValue
	private []byte
}

func newBenchServer(b testing.TB, items int) *benchServer {
	b.Helper()
	return newServerOf(b, func(bpType tftypes.Object) tftypes.Value {
		return nullObject(bpType, map[string]tftypes.Value{
			"inline": tftypes.NewValue(bpType.AttributeTypes["inline"], map[string]tftypes.Value{
				"blueprint.yaml":        tftypes.NewValue(tftypes.String, benchBlueprint),
				"deploy-execution.yaml": tftypes.NewValue(tftypes.String, benchExecution(items)),
			}),
		})
	})
}

// newServerOf is newBenchServer with the blueprint attribute that
// blueprintOf makes of its type.
func newServerOf(b testing.TB, blueprintOf func(tftypes.Object) tftypes.Value) *benchServer {
	b.Helper()
	ctx := context.Background()
	srv, err := providerserver.NewProtocol6WithError(New("bench")())()
	if err != nil {
		b.Fatal(err)
	}
	schemas, err := srv.GetProviderSchema(ctx, &tfprotov6.GetProviderSchemaRequest{})
	if err != nil || len(schemas.Diagnostics) > 0 {
		b.Fatalf("schema: %v %v", err, schemas.Diagnostics)
	}
	providerConfig := nullObject(schemas.Provider.ValueType().(tftypes.Object), nil)
	pc, err := tfprotov6.NewDynamicValue(providerConfig.Type(), providerConfig)
	if err != nil {
		b.Fatal(err)
	}
	cresp, err := srv.ConfigureProvider(ctx, &tfprotov6.ConfigureProviderRequest{Config: &pc})
	if err != nil || len(cresp.Diagnostics) > 0 {
		b.Fatalf("configure: %v %v", err, cresp.Diagnostics)
	}
	typ := schemas.ResourceSchemas[benchResource].ValueType().(tftypes.Object)
	blueprint := blueprintOf(typ.AttributeTypes["blueprint"].(tftypes.Object))
	config := nullObject(typ, map[string]tftypes.Value{
		"name":      tftypes.NewValue(tftypes.String, "bench"),
		"blueprint": blueprint,
	})
	raw, err := tfprotov6.NewDynamicValue(typ, config)
	if err != nil {
		b.Fatal(err)
	}
	return &benchServer{ctx: ctx, srv: srv, typ: typ, config: &config, raw: &raw}
}

// nullObject is an object of type t whose attributes are null but those given.
func nullObject(t tftypes.Object, set map[string]tftypes.Value) tftypes.Value {
	vals := make(map[string]tftypes.Value, len(t.AttributeTypes))
	for name, at := range t.AttributeTypes {
		vals[name] = tftypes.NewValue(at, nil)
		if v, ok := set[name]; ok {
			vals[name] = v
		}
	}
	return tftypes.NewValue(t, vals)
}

const benchBlueprint = `apiVersion: landscaper.gardener.cloud/v1alpha1
kind: Blueprint
jsonSchemaVersion: https://json-schema.org/draft/2019-09/schema
deployExecutions:
- name: scale
  type: GoTemplate
  file: /deploy-execution.yaml
`

// benchExecution renders n independent mock items, each with a
// configuration the size of tools/bench's ConfigMap items.
func benchExecution(n int) string {
	return strings.ReplaceAll(`deployItems:
{{- range $i := until COUNT }}
- name: cm-{{ $i }}
  type: landscaper.gardener.cloud/mock
  config:
    apiVersion: manifest.deployer.landscaper.gardener.cloud/v1alpha2
    kind: ProviderConfiguration
    manifests:
    - policy: manage
      manifest:
        apiVersion: v1
        kind: ConfigMap
        metadata: {name: "bench-cm-{{ $i }}", namespace: bench}
        data: {index: "{{ $i }}"}
{{- end }}
`, "COUNT", fmt.Sprint(n))
}

func (s *benchServer) create(b testing.TB) benchState {
	b.Helper()
	prior, err := tfprotov6.NewDynamicValue(s.typ, tftypes.NewValue(s.typ, nil))
	if err != nil {
		b.Fatal(err)
	}
	plan, err := s.srv.PlanResourceChange(s.ctx, &tfprotov6.PlanResourceChangeRequest{
		TypeName: benchResource, PriorState: &prior, ProposedNewState: s.raw, Config: s.raw,
	})
	check(b, "plan", err, plan.Diagnostics)
	applied, err := s.srv.ApplyResourceChange(s.ctx, &tfprotov6.ApplyResourceChangeRequest{
		TypeName: benchResource, PriorState: &prior, PlannedState: plan.PlannedState, Config: s.raw,
		PlannedPrivate: plan.PlannedPrivate,
	})
	check(b, "apply", err, applied.Diagnostics)
	return benchState{state: applied.NewState, private: applied.Private}
}

// noOpRequests is what Terraform sends for a no-op plan of the
// installation in st, prepared once (the CLI's own work is not measured).
type noOpRequests struct {
	stateJSON []byte
	proposed  *tfprotov6.DynamicValue
	private   []byte
	state     tftypes.Value
}

func (s *benchServer) prepareNoOp(b testing.TB, st benchState) noOpRequests {
	b.Helper()
	stateValue, err := st.state.Unmarshal(s.typ)
	if err != nil {
		b.Fatal(err)
	}
	raw, err := stateJSON(s.typ, stateValue)
	if err != nil {
		b.Fatal(err)
	}
	proposed, err := proposedNewState(s.typ, st.state, *s.config)
	if err != nil {
		b.Fatal(err)
	}
	return noOpRequests{stateJSON: raw, proposed: proposed, private: st.private, state: stateValue}
}

// noOpPlan is what `terraform plan` asks of an unchanged installation
// and returns the planned state.
func (s *benchServer) noOpPlan(b testing.TB, r noOpRequests) *tfprotov6.DynamicValue {
	b.Helper()
	up, err := s.srv.UpgradeResourceState(s.ctx, &tfprotov6.UpgradeResourceStateRequest{
		TypeName: benchResource, Version: shared.InstallationSchemaVersion, RawState: &tfprotov6.RawState{JSON: r.stateJSON},
	})
	check(b, "upgrade", err, up.Diagnostics)
	read, err := s.srv.ReadResource(s.ctx, &tfprotov6.ReadResourceRequest{
		TypeName: benchResource, CurrentState: up.UpgradedState, Private: r.private,
	})
	check(b, "read", err, read.Diagnostics)
	valid, err := s.srv.ValidateResourceConfig(s.ctx, &tfprotov6.ValidateResourceConfigRequest{TypeName: benchResource, Config: s.raw})
	check(b, "validate", err, valid.Diagnostics)
	plan, err := s.srv.PlanResourceChange(s.ctx, &tfprotov6.PlanResourceChangeRequest{
		TypeName: benchResource, PriorState: read.NewState, ProposedNewState: r.proposed, Config: s.raw,
		PriorPrivate: read.Private,
	})
	check(b, "no-op plan", err, plan.Diagnostics)
	return plan.PlannedState
}

// expectEmpty fails the benchmark unless planned equals the state.
func (s *benchServer) expectEmpty(b testing.TB, r noOpRequests, planned *tfprotov6.DynamicValue) {
	b.Helper()
	v, err := planned.Unmarshal(s.typ)
	if err != nil {
		b.Fatal(err)
	}
	if !v.Equal(r.state) {
		b.Fatal("the plan of the unchanged installation is not empty")
	}
}

// proposedNewState is Terraform's proposed new state for an unchanged
// configuration: the configuration, with the computed attributes the
// configuration leaves null taken from the prior state.
func proposedNewState(typ tftypes.Object, prior *tfprotov6.DynamicValue, config tftypes.Value) (*tfprotov6.DynamicValue, error) {
	priorValue, err := prior.Unmarshal(typ)
	if err != nil {
		return nil, err
	}
	var p, c map[string]tftypes.Value
	if err := priorValue.As(&p); err != nil {
		return nil, err
	}
	if err := config.As(&c); err != nil {
		return nil, err
	}
	out := make(map[string]tftypes.Value, len(c))
	for name, v := range c {
		out[name] = v
		if v.IsNull() {
			out[name] = p[name]
		}
	}
	dv, err := tfprotov6.NewDynamicValue(typ, tftypes.NewValue(typ, out))
	return &dv, err
}

// stateJSON is a value of type typ as Terraform keeps it in a state
// file (a dynamic value as its type and value), for UpgradeResourceState.
func stateJSON(typ tftypes.Type, v tftypes.Value) ([]byte, error) {
	g, err := jsonable(typ, v)
	if err != nil {
		return nil, err
	}
	return json.Marshal(g)
}

func jsonable(typ tftypes.Type, v tftypes.Value) (any, error) {
	if v.IsNull() {
		return nil, nil
	}
	if typ.Is(tftypes.DynamicPseudoType) {
		t, err := v.Type().MarshalJSON() //nolint:staticcheck // the state file's own encoding of a type
		if err != nil {
			return nil, err
		}
		g, err := jsonable(v.Type(), v)
		return map[string]any{"type": json.RawMessage(t), "value": g}, err
	}
	switch t := typ.(type) {
	case tftypes.Object:
		var m map[string]tftypes.Value
		if err := v.As(&m); err != nil {
			return nil, err
		}
		out := make(map[string]any, len(m))
		for k, e := range m {
			g, err := jsonable(t.AttributeTypes[k], e)
			if err != nil {
				return nil, err
			}
			out[k] = g
		}
		return out, nil
	case tftypes.Map:
		var m map[string]tftypes.Value
		if err := v.As(&m); err != nil {
			return nil, err
		}
		out := make(map[string]any, len(m))
		for k, e := range m {
			g, err := jsonable(t.ElementType, e)
			if err != nil {
				return nil, err
			}
			out[k] = g
		}
		return out, nil
	case tftypes.List, tftypes.Set, tftypes.Tuple:
		var l []tftypes.Value
		if err := v.As(&l); err != nil {
			return nil, err
		}
		out := make([]any, 0, len(l))
		for i, e := range l {
			g, err := jsonable(elementType(t, i), e)
			if err != nil {
				return nil, err
			}
			out = append(out, g)
		}
		return out, nil
	}
	switch {
	case typ.Is(tftypes.String):
		var s string
		return s, v.As(&s)
	case typ.Is(tftypes.Bool):
		var b bool
		return b, v.As(&b)
	case typ.Is(tftypes.Number):
		n := new(big.Float)
		if err := v.As(&n); err != nil {
			return nil, err
		}
		return json.Number(n.Text('g', -1)), nil
	}
	return nil, fmt.Errorf("no JSON for %s", typ)
}

func elementType(t tftypes.Type, i int) tftypes.Type {
	switch t := t.(type) {
	case tftypes.List:
		return t.ElementType
	case tftypes.Set:
		return t.ElementType
	case tftypes.Tuple:
		return t.ElementTypes[i]
	}
	return tftypes.DynamicPseudoType
}

func check(b testing.TB, what string, err error, diags []*tfprotov6.Diagnostic) {
	b.Helper()
	if err != nil {
		b.Fatalf("%s: %v", what, err)
	}
	for _, d := range diags {
		if d.Severity == tfprotov6.DiagnosticSeverityError {
			b.Fatalf("%s: %s: %s", what, d.Summary, d.Detail)
		}
	}
}
