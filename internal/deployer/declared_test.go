package deployer

import (
	"context"
	"encoding/json"
	"testing"
)

// plain is a Deployer that declares nothing.
type plain struct{}

func (plain) Apply(context.Context, Item) (Result, error)       { return Result{}, nil }
func (plain) Delete(context.Context, Item, DeleteOptions) error { return nil }
func (plain) Drift(context.Context, Item) (DriftReport, error)  { return DriftReport{}, nil }
func (plain) Validate(json.RawMessage) error                    { return nil }

// declaring reads no files, hands every item off and uses charts.
type declaring struct {
	plain
	charts any
}

func (declaring) ReadsFiles() bool   { return false }
func (declaring) HandsOff(Item) bool { return true }
func (d declaring) UsingCharts(charts any) Deployer {
	d.charts = charts
	return d
}

// wrapper hides what it wraps, as a job's wrappers do.
type wrapper struct{ Deployer }

// The registry answers for the deployer as registered, also after a job
// wrapped every deployer; an unknown type and a deployer that does not
// say are taken to read files.
func TestRegistry_Declared(t *testing.T) {
	reg := NewRegistry()
	reg.Register("a", plain{})
	reg.Register("b", declaring{})
	wrapped := reg.Wrap(func(_ string, d Deployer) Deployer { return wrapper{d} })
	for _, r := range []*Registry{reg, wrapped} {
		if got := r.Declared("a"); got != (Declared{ReadsFiles: true}) {
			t.Errorf("plain declares %+v", got)
		}
		if got := r.Declared("b"); got != (Declared{UsesCharts: true}) {
			t.Errorf("declaring declares %+v", got)
		}
		if !r.Declared("unknown").ReadsFiles || r.HandsOff(Item{Type: "unknown"}) || r.HandsOff(Item{Type: "a"}) {
			t.Error("an unknown type or a plain deployer hands off, or an unknown type reads no files")
		}
		if !r.HandsOff(Item{Type: "b"}) {
			t.Error("the declaring deployer does not hand off")
		}
	}
}

// UsingCharts gives the charts to the chart users only.
func TestRegistry_UsingCharts(t *testing.T) {
	reg := NewRegistry()
	reg.Register("a", plain{})
	reg.Register("b", declaring{})
	with := reg.UsingCharts("charts")
	if d, _ := with.Lookup("b"); d.(declaring).charts != "charts" {
		t.Errorf("the chart user got %v", d.(declaring).charts)
	}
	if d, _ := with.Lookup("a"); d != (plain{}) {
		t.Errorf("the plain deployer became %T", d)
	}
	if d, _ := reg.Lookup("b"); d.(declaring).charts != nil {
		t.Error("the shared registry changed")
	}
}
