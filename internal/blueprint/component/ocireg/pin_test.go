package ocireg_test

import (
	"context"
	"errors"
	"net"
	"strings"
	"testing"

	"github.com/opencontainers/go-digest"
	ocispec "github.com/opencontainers/image-spec/specs-go/v1"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint/component/componenttest"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint/component/ocireg"
)

const pinRef = "registry.test/repo:v1"

// pushVersion tags pinRef with an artifact holding data and returns its
// manifest descriptor, read once through a client so the cache holds it.
func pushVersion(t *testing.T, mem componenttest.Memory, cacheDir, data string) ocispec.Descriptor {
	t.Helper()
	ctx := context.Background()
	desc, err := componenttest.PushArtifact(ctx, mem.Open, pinRef,
		componenttest.Layer{MediaType: "application/vnd.test.config+json", Data: []byte("{}")},
		componenttest.Layer{MediaType: "application/vnd.test.layer", Data: []byte(data)})
	if err != nil {
		t.Fatal(err)
	}
	c := ocireg.New(ocireg.Options{CacheDir: cacheDir, Repository: mem.Read})
	got, err := c.Resolve(ctx, pinRef)
	if err != nil || got.Digest != desc.Digest {
		t.Fatalf("resolve: %v, %v", got.Digest, err)
	}
	if _, err := c.Fetch(ctx, "registry.test/repo", got); err != nil {
		t.Fatal(err)
	}
	return desc
}

// unreachable opens repositories of a registry that does not answer.
func unreachable(string) (ocireg.Target, error) {
	return nil, &net.OpError{Op: "dial", Net: "tcp", Err: errors.New("connection refused")}
}

// A digest recorded in state: a plan with the registry unreachable uses it
// (not the tag's last answer in the cache, which another workspace may
// have moved) and warns; apply and refresh use it strictly, even when the
// registry answers with another digest for the tag.
func TestResolvePinned(t *testing.T) {
	ctx := context.Background()
	cacheDir := t.TempDir()
	mem := componenttest.Memory{}
	recorded := pushVersion(t, mem, cacheDir, "first")
	moved := pushVersion(t, mem, cacheDir, "second") // the cache's tag entry now says "moved"

	offline := ocireg.New(ocireg.Options{CacheDir: cacheDir, Repository: unreachable})
	got, err := offline.ResolvePinned(ctx, pinRef, ocireg.Pin{Digest: recorded.Digest})
	if err != nil || got.Digest != recorded.Digest || got.Size != recorded.Size || got.MediaType != ocispec.MediaTypeImageManifest {
		t.Fatalf("offline plan with a recorded digest: got %+v, %v; want %s", got, err, recorded.Digest)
	}
	if w := offline.Warnings(); len(w) != 1 || !strings.Contains(w[0], "recorded in the state") {
		t.Errorf("warnings: %q", w)
	}
	if got, err := offline.ResolvePinned(ctx, pinRef, ocireg.Pin{}); err != nil || got.Digest != moved.Digest {
		t.Errorf("offline plan without a recorded digest: got %s, %v; want the cached tag %s", got.Digest, err, moved.Digest)
	}
	missing := ocireg.Pin{Digest: digest.FromString("never cached")}
	if got, err := offline.ResolvePinned(ctx, pinRef, missing); err != nil || got.Digest != moved.Digest {
		t.Errorf("offline plan with an uncached recorded digest: got %s, %v; want the cached tag %s", got.Digest, err, moved.Digest)
	}

	online := ocireg.New(ocireg.Options{CacheDir: cacheDir, Repository: mem.Read})
	if got, err := online.ResolvePinned(ctx, pinRef, ocireg.Pin{Digest: recorded.Digest}); err != nil || got.Digest != moved.Digest {
		t.Errorf("online plan: got %s, %v; want the tag's new digest %s", got.Digest, err, moved.Digest)
	}
	strict := ocireg.Pin{Digest: recorded.Digest, Strict: true}
	for name, c := range map[string]*ocireg.Client{"online": online, "offline": offline} {
		if got, err := c.ResolvePinned(ctx, pinRef, strict); err != nil || got.Digest != recorded.Digest {
			t.Errorf("%s apply: got %s, %v; want the recorded %s", name, got.Digest, err, recorded.Digest)
		}
	}
	// Strict and not cached: asked from the registry by digest.
	fresh := ocireg.New(ocireg.Options{CacheDir: t.TempDir(), Repository: mem.Read})
	if got, err := fresh.ResolvePinned(ctx, pinRef, strict); err != nil || got.Digest != recorded.Digest {
		t.Errorf("apply with an empty cache: got %s, %v", got.Digest, err)
	}
	if _, err := fresh.ResolvePinned(ctx, pinRef, ocireg.Pin{Digest: "sha256:zz"}); err == nil {
		t.Error("an invalid recorded digest was accepted")
	}
}
