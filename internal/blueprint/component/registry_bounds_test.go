package component_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint/component"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint/component/componenttest"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint/component/ocireg"
)

// TestRegistryLoad_ReferenceBounds proves the references a component
// version declares are read within bounds — at most 16 requests at once,
// at most 1,000 component versions in a tree, at most 32 levels deep —
// and that exceeding one fails naming the component whose references
// exceed it, before its references are requested.
func TestRegistryLoad_ReferenceBounds(t *testing.T) {
	ctx := context.Background()
	mem := componenttest.Memory{}
	if err := componenttest.PushFanOut(ctx, mem.Open, testContext, "example.com/wide", 3000, 0); err != nil {
		t.Fatal(err)
	}
	if err := componenttest.PushFanOut(ctx, mem.Open, testContext, "example.com/fan", 200, 200); err != nil {
		t.Fatal(err)
	}
	if err := componenttest.PushChain(ctx, mem.Open, testContext, "example.com/deep", 40); err != nil {
		t.Fatal(err)
	}
	loadCounting := func(name string) (*componenttest.InFlight, error) {
		f := &componenttest.InFlight{Read: mem.Read, Delay: 5 * time.Millisecond}
		reg := &component.Registry{Client: ocireg.New(ocireg.Options{Repository: f.Open})}
		_, err := reg.Load(ctx, component.VersionRef{Context: testContext, Name: name, Version: "1.0.0"})
		return f, err
	}

	f, err := loadCounting("example.com/fan")
	if err != nil {
		t.Fatalf("200 references: %v", err)
	}
	t.Logf("200 references: %d requests, at most %d at once", f.Total(), f.Max())
	if f.Max() > 16 {
		t.Errorf("%d requests at once, want at most 16", f.Max())
	}

	f, err = loadCounting("example.com/wide")
	want := "component example.com/wide:1.0.0: its references make the tree of example.com/wide:1.0.0 hold more than 1000 component versions"
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("3,000 references: want %q, got %.300v", want, err)
	}
	// Only the root was read: no reference was requested.
	if f.Total() > 10 {
		t.Errorf("3,000 references: %d requests", f.Total())
	}

	_, err = loadCounting("example.com/deep-0")
	want = "component example.com/deep-32:1.0.0: its references are nested more than 32 levels below example.com/deep-0:1.0.0"
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("40 levels: want %q, got %v", want, err)
	}
}
