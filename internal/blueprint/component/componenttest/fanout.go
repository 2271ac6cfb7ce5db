package componenttest

import (
	"context"
	"fmt"
	"io"
	"strings"
	"sync/atomic"
	"time"

	ocispec "github.com/opencontainers/image-spec/specs-go/v1"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint/component"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint/component/ocireg"
)

// PushFanOut pushes name:1.0.0 referencing n component versions
// name-<i>:1.0.0, of which only the first pushed exist: a reader that
// starts a request per reference starts n.
func PushFanOut(ctx context.Context, open Opener, rc component.RepositorySpec, name string, n, pushed int) error {
	var refs strings.Builder
	for i := range n {
		fmt.Fprintf(&refs, "  - {name: r%d, componentName: %s-%d, version: 1.0.0}\n", i, name, i)
		if i < pushed {
			if _, err := PushVersion(ctx, open, rc, fmt.Sprintf("%s-%d", name, i), "1.0.0", Version{Descriptor: leaf(fmt.Sprintf("%s-%d", name, i))}); err != nil {
				return err
			}
		}
	}
	_, err := PushVersion(ctx, open, rc, name, "1.0.0", Version{Descriptor: fmt.Sprintf(
		"apiVersion: ocm.software/v3alpha1\nkind: ComponentVersion\nmetadata: {name: %s, version: 1.0.0, provider: {name: test}}\nspec:\n  references:\n%s",
		name, refs.String())})
	return err
}

// PushChain pushes name-0:1.0.0 → name-1:1.0.0 → … → name-<n-1>:1.0.0.
func PushChain(ctx context.Context, open Opener, rc component.RepositorySpec, name string, n int) error {
	for i := range n {
		d := leaf(fmt.Sprintf("%s-%d", name, i))
		if i < n-1 {
			d += fmt.Sprintf("  references: [{name: next, componentName: %s-%d, version: 1.0.0}]\n", name, i+1)
		}
		if _, err := PushVersion(ctx, open, rc, fmt.Sprintf("%s-%d", name, i), "1.0.0", Version{Descriptor: d}); err != nil {
			return err
		}
	}
	return nil
}

func leaf(name string) string {
	return fmt.Sprintf("apiVersion: ocm.software/v3alpha1\nkind: ComponentVersion\nmetadata: {name: %s, version: 1.0.0, provider: {name: test}}\nspec:\n", name)
}

// InFlight wraps a repository opener and counts the requests (opening a
// repository, resolving a tag, fetching a blob) running at once, each
// held for Delay so that concurrent ones overlap.
type InFlight struct {
	Read  func(name string) (ocireg.Target, error)
	Delay time.Duration
	now   atomic.Int64
	max   atomic.Int64
	total atomic.Int64
}

// Max is the most requests that ran at once; Total all of them.
func (f *InFlight) Max() int64   { return f.max.Load() }
func (f *InFlight) Total() int64 { return f.total.Load() }

func (f *InFlight) enter() func() {
	f.total.Add(1)
	n := f.now.Add(1)
	for {
		m := f.max.Load()
		if n <= m || f.max.CompareAndSwap(m, n) {
			break
		}
	}
	time.Sleep(f.Delay)
	return func() { f.now.Add(-1) }
}

// Open is an ocireg.Options.Repository.
func (f *InFlight) Open(name string) (ocireg.Target, error) {
	defer f.enter()()
	t, err := f.Read(name)
	if err != nil {
		return nil, err
	}
	return inFlightTarget{t, f}, nil
}

type inFlightTarget struct {
	ocireg.Target
	f *InFlight
}

func (t inFlightTarget) Resolve(ctx context.Context, ref string) (ocispec.Descriptor, error) {
	defer t.f.enter()()
	return t.Target.Resolve(ctx, ref)
}

func (t inFlightTarget) Fetch(ctx context.Context, desc ocispec.Descriptor) (io.ReadCloser, error) {
	defer t.f.enter()()
	return t.Target.Fetch(ctx, desc)
}
