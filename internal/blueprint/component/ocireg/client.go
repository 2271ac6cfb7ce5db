package ocireg

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/opencontainers/go-digest"
	ocispec "github.com/opencontainers/image-spec/specs-go/v1"
	"oras.land/oras-go/v2/content"
	"oras.land/oras-go/v2/errdef"
	"oras.land/oras-go/v2/registry"
	"oras.land/oras-go/v2/registry/remote"
	"oras.land/oras-go/v2/registry/remote/auth"
	"oras.land/oras-go/v2/registry/remote/errcode"
)

// MaxBlobBytes bounds one manifest or blob read into memory.
const MaxBlobBytes = 256 << 20

// Target is the read side of one repository: a remote repository, or an
// in-memory store in tests.
type Target interface {
	content.Fetcher
	content.Resolver
}

// Options configure a Client.
type Options struct {
	// CacheDir holds the content-addressed cache; empty disables it.
	CacheDir string
	// Credential returns the credential of a registry host ("host:port");
	// nil means anonymous access everywhere.
	Credential auth.CredentialFunc
	// Repository opens a repository by name ("host/path"); nil means a
	// remote registry. Tests put in-memory stores here.
	Repository func(name string) (Target, error)
}

// Client fetches artifacts. It is safe for concurrent use, and resolves a
// tag at most once in its lifetime, so one Terraform command sees one
// digest per tag.
type Client struct {
	cache      *cache
	credential auth.CredentialFunc
	open       func(name string) (Target, error)
	// remoteOpen is set when open is c.remote (which uses c's credentials).
	remoteOpen bool
	http       *http.Client

	mu       sync.Mutex
	resolved map[string]ocispec.Descriptor
	// unreachable are the tags whose registry did not answer.
	unreachable map[string]error
	warnings    []string
}

// New returns a client.
func New(opts Options) *Client {
	c := &Client{
		credential:  opts.Credential,
		open:        opts.Repository,
		resolved:    map[string]ocispec.Descriptor{},
		unreachable: map[string]error{},
		http: &http.Client{Transport: &http.Transport{
			Proxy:                 http.ProxyFromEnvironment,
			DialContext:           (&net.Dialer{Timeout: 10 * time.Second}).DialContext,
			TLSHandshakeTimeout:   10 * time.Second,
			ResponseHeaderTimeout: 30 * time.Second,
			MaxIdleConnsPerHost:   8,
		}},
	}
	if opts.CacheDir != "" {
		c.cache = &cache{dir: opts.CacheDir}
	}
	if c.open == nil {
		c.open, c.remoteOpen = c.remote, true
	}
	return c
}

// remote opens a repository of a registry. Loopback registries are spoken
// to over plain HTTP (as `helm --plain-http` or a local test registry
// need); every other host over HTTPS.
func (c *Client) remote(name string) (Target, error) {
	repo, err := remote.NewRepository(name)
	if err != nil {
		return nil, err
	}
	repo.PlainHTTP = isLoopback(repo.Reference.Registry)
	repo.Client = &auth.Client{Client: c.http, Cache: auth.NewCache(), Credential: c.credential}
	return repo, nil
}

func isLoopback(hostport string) bool {
	host := hostport
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		host = h
	}
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// Warnings returns what the client noticed without failing, e.g. a tag
// answered from the cache because the registry was unreachable.
func (c *Client) Warnings() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]string(nil), c.warnings...)
}

// Pin is the digest a tag resolved to in an earlier command (Terraform
// state records it).
type Pin struct {
	Digest digest.Digest
	// Strict takes Digest without asking the registry what the tag points
	// at now: apply uses what the plan showed, refresh what was deployed.
	// Otherwise the tag is resolved, and Digest is the answer only when
	// the registry cannot be reached.
	Strict bool
}

// Resolve returns the descriptor a reference ("host/repo:tag" or
// "host/repo@sha256:…") points at. A tag is asked from the registry once
// per client; when the registry cannot be reached, the digest last seen
// for the tag is taken from the cache.
func (c *Client) Resolve(ctx context.Context, ref string) (ocispec.Descriptor, error) {
	return c.ResolvePinned(ctx, ref, Pin{})
}

// ResolvePinned is Resolve with the digest of an earlier command: taken
// as is when strict, else in place of the tag's answer when the registry
// cannot be reached (before the cache's last answer for the tag).
func (c *Client) ResolvePinned(ctx context.Context, ref string, pin Pin) (ocispec.Descriptor, error) {
	parsed, err := registry.ParseReference(ref)
	if err != nil {
		return ocispec.Descriptor{}, fmt.Errorf("invalid OCI reference %q: %w", ref, err)
	}
	if pin.Digest != "" && pin.Digest.Validate() != nil {
		return ocispec.Descriptor{}, fmt.Errorf("%s: recorded digest %q is not a digest", ref, pin.Digest)
	}
	if pin.Strict && pin.Digest != "" {
		return c.byDigest(ctx, parsed, pin.Digest)
	}
	if dgst, derr := parsed.Digest(); derr == nil {
		return c.byDigest(ctx, parsed, dgst)
	}
	key := parsed.String()
	c.mu.Lock()
	desc, ok := c.resolved[key]
	unreachable := c.unreachable[key]
	c.mu.Unlock()
	if ok {
		return desc, nil
	}
	if unreachable == nil {
		repo, err := c.open(parsed.Registry + "/" + parsed.Repository)
		if err == nil {
			desc, err = repo.Resolve(ctx, parsed.ReferenceOrDefault())
		}
		if err == nil {
			c.cache.putDescriptor(key, desc)
			c.mu.Lock()
			c.resolved[key] = desc
			c.mu.Unlock()
			return desc, nil
		}
		if !Unreachable(err) {
			return ocispec.Descriptor{}, describe(ref, err)
		}
		// Asked once: further installations naming the tag fall back at once.
		c.mu.Lock()
		c.unreachable[key] = err
		c.mu.Unlock()
		unreachable = err
	}
	if pin.Digest != "" {
		if cached, ok := c.cache.manifest(pin.Digest); ok {
			c.warn(fmt.Sprintf("%s: registry unreachable, using the digest %s recorded in the state", ref, pin.Digest))
			return cached, nil
		}
	}
	if cached, ok := c.cache.descriptor(key); ok {
		c.warn(fmt.Sprintf("%s: registry unreachable, using the cached digest %s", ref, cached.Digest))
		return cached, nil
	}
	return ocispec.Descriptor{}, describe(ref, unreachable)
}

// byDigest returns the descriptor of a manifest by digest: from the cache
// without a request, else from the registry.
func (c *Client) byDigest(ctx context.Context, parsed registry.Reference, d digest.Digest) (ocispec.Descriptor, error) {
	if cached, ok := c.cache.manifest(d); ok {
		return cached, nil
	}
	ref := parsed.Registry + "/" + parsed.Repository + "@" + d.String()
	repo, err := c.open(parsed.Registry + "/" + parsed.Repository)
	if err != nil {
		return ocispec.Descriptor{}, describe(ref, err)
	}
	desc, err := repo.Resolve(ctx, d.String())
	if err != nil {
		return ocispec.Descriptor{}, describe(ref, err)
	}
	if desc.Digest != d {
		return ocispec.Descriptor{}, fmt.Errorf("%s: %w (the registry answered %s)", ref, ErrDigest, desc.Digest)
	}
	return desc, nil
}

// Warn records msg among the Warnings: what a caller reading through
// this client noticed without failing.
func (c *Client) Warn(msg string) { c.warn(msg) }

func (c *Client) warn(msg string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.warnings = append(c.warnings, msg)
}

// Fetch returns the verified content of desc in the repository
// ("host/path"), from the cache when it is there.
func (c *Client) Fetch(ctx context.Context, repository string, desc ocispec.Descriptor) ([]byte, error) {
	if desc.Size > MaxBlobBytes || desc.Size < 0 {
		return nil, fmt.Errorf("%s@%s: size %d exceeds the limit of %d bytes", repository, desc.Digest, desc.Size, MaxBlobBytes)
	}
	if data, ok := c.cache.blob(desc); ok {
		return data, nil
	}
	repo, err := c.open(repository)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", repository, err)
	}
	rc, err := repo.Fetch(ctx, desc)
	if err != nil {
		return nil, describe(repository+"@"+desc.Digest.String(), err)
	}
	defer func() { _ = rc.Close() }()
	data, err := content.ReadAll(rc, desc)
	if err != nil {
		return nil, describe(repository+"@"+desc.Digest.String(), err)
	}
	c.cache.putBlob(desc, data)
	return data, nil
}

// Unreachable reports whether err means the registry did not answer
// (as opposed to answering "no").
func Unreachable(err error) bool {
	var resp *errcode.ErrorResponse
	if errors.As(err, &resp) || errors.Is(err, errdef.ErrNotFound) || errors.Is(err, content.ErrMismatchedDigest) {
		return false
	}
	var netErr net.Error
	var opErr *net.OpError
	return errors.As(err, &netErr) || errors.As(err, &opErr) || errors.Is(err, context.DeadlineExceeded)
}

// Error kinds callers can test with errors.Is.
var (
	ErrNotFound     = errors.New("not found")
	ErrUnauthorized = errors.New("access denied (check the registry credentials)")
	ErrDigest       = errors.New("content does not match its digest")
)

// describe turns an oras error into one that says what happened in words,
// without the request URL's query or any credential.
func describe(what string, err error) error {
	var resp *errcode.ErrorResponse
	switch {
	case errors.Is(err, errdef.ErrNotFound):
		return fmt.Errorf("%s: %w", what, ErrNotFound)
	case errors.Is(err, content.ErrMismatchedDigest), errors.Is(err, content.ErrTrailingData):
		return fmt.Errorf("%s: %w", what, ErrDigest)
	case errors.As(err, &resp):
		switch resp.StatusCode {
		case http.StatusUnauthorized, http.StatusForbidden:
			return fmt.Errorf("%s: %w (HTTP %d)", what, ErrUnauthorized, resp.StatusCode)
		case http.StatusNotFound:
			return fmt.Errorf("%s: %w", what, ErrNotFound)
		}
		return fmt.Errorf("%s: registry answered HTTP %d %s", what, resp.StatusCode, firstErrorCode(resp))
	}
	return fmt.Errorf("%s: %w", what, err)
}

func firstErrorCode(resp *errcode.ErrorResponse) string {
	if len(resp.Errors) == 0 {
		return ""
	}
	return strings.TrimSpace(resp.Errors[0].Code + " " + resp.Errors[0].Message)
}
