package shared

import (
	"context"
	"errors"
	"net"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint/component"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint/component/componenttest"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint/component/ocireg"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/hostaccess"
)

// TestLoadComponentRef_UnreachableIsAPlanWarning proves a plan with the
// registry unreachable reads the component version at the digest recorded
// in state (from the cache) and says so in one warning diagnostic.
func TestLoadComponentRef_UnreachableIsAPlanWarning(t *testing.T) {
	ctx := context.Background()
	mem := componenttest.Memory{}
	rc := component.RepositorySpec{Type: "ociRegistry", BaseURL: "registry.test/base"}
	ref := component.VersionRef{Context: rc, Name: "example.com/app", Version: "1.0.0"}
	push := func(marker string) {
		if _, err := componenttest.PushVersion(ctx, mem.Open, rc, ref.Name, ref.Version, componenttest.Version{Descriptor: `
apiVersion: ocm.software/v3alpha1
kind: ComponentVersion
metadata: {name: example.com/app, version: 1.0.0, provider: {name: test}, labels: [{name: marker, value: ` + marker + `}]}
`}); err != nil {
			t.Fatal(err)
		}
	}
	cacheDir := t.TempDir()
	read := func(open func(string) (ocireg.Target, error), recorded types.Map) (*component.Component, *RegistryNotes, error) {
		access := &hostaccess.ComponentAccess{Registry: &component.Registry{Client: ocireg.New(ocireg.Options{CacheDir: cacheDir, Repository: open})}}
		in := SpecInputs{Components: access, Security: &Security{}, pins: PinsOf(recorded, false), Notes: &RegistryNotes{}}
		c, err := loadComponentRef(ctx, in, ref)
		return c, in.Notes, err
	}
	push("first")
	first, _, err := read(mem.Read, types.MapNull(types.StringType))
	if err != nil {
		t.Fatal(err)
	}
	state := ComponentDigests(first)
	push("second")
	if _, _, err := read(mem.Read, state); err != nil { // the cache's tag entry moves on
		t.Fatal(err)
	}

	unreachable := func(string) (ocireg.Target, error) {
		return nil, &net.OpError{Op: "dial", Net: "tcp", Err: errors.New("connection refused")}
	}
	c, notes, err := read(unreachable, state)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := ComponentDigests(c), state; !got.Equal(want) {
		t.Errorf("read %v, want the digests in state %v", got, want)
	}
	var diags diag.Diagnostics
	notes.AddTo(&diags)
	if diags.WarningsCount() != 1 || diags.HasError() || !strings.Contains(diags[0].Detail(), "recorded in the state") {
		t.Errorf("diagnostics: %v", diags)
	}
}
