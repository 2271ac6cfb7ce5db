package ociregistry_test

import (
	"crypto/sha256"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/testsupport/ociregistry"
)

// TestStart_Anonymous: a blob pushed to the registry can be read back.
func TestStart_Anonymous(t *testing.T) {
	reg := ociregistry.Start(t, ociregistry.Options{})
	if !strings.HasPrefix(reg.Host(), "127.0.0.1:") {
		t.Fatalf("Host() = %q, want a loopback address", reg.Host())
	}
	digest := pushBlob(t, reg, "", "", "hello")
	resp := get(t, "http://"+reg.Host()+"/v2/test/blobs/"+digest, "", "")
	if resp.StatusCode != http.StatusOK || string(resp.Body) != "hello" {
		t.Errorf("GET blob: %d %q, want 200 \"hello\"", resp.StatusCode, resp.Body)
	}
}

// TestStart_BasicAuth: with credentials, anonymous and wrong ones are
// refused and the right ones accepted.
func TestStart_BasicAuth(t *testing.T) {
	reg := ociregistry.Start(t, ociregistry.Options{User: "alice", Password: "s3cret"})
	url := "http://" + reg.Host() + "/v2/"
	for _, tc := range []struct {
		user, password string
		want           int
	}{
		{"", "", http.StatusUnauthorized},
		{"alice", "wrong", http.StatusUnauthorized},
		{"bob", "s3cret", http.StatusUnauthorized},
		{"alice", "s3cret", http.StatusOK},
	} {
		if got := get(t, url, tc.user, tc.password).StatusCode; got != tc.want {
			t.Errorf("GET /v2/ as %q/%q: %d, want %d", tc.user, tc.password, got, tc.want)
		}
	}
	pushBlob(t, reg, "alice", "s3cret", "private")
}

// TestStart_Isolated: two registries of one test share no storage.
func TestStart_Isolated(t *testing.T) {
	a := ociregistry.Start(t, ociregistry.Options{})
	b := ociregistry.Start(t, ociregistry.Options{})
	if a.Host() == b.Host() {
		t.Fatalf("both registries on %s", a.Host())
	}
	digest := pushBlob(t, a, "", "", "only in a")
	if got := get(t, "http://"+b.Host()+"/v2/test/blobs/"+digest, "", "").StatusCode; got != http.StatusNotFound {
		t.Errorf("blob of a in b: %d, want 404", got)
	}
}

// pushBlob uploads content as a blob of repository "test" (monolithic
// upload, OCI distribution spec) and returns its digest.
func pushBlob(t *testing.T, reg *ociregistry.Registry, user, password, content string) string {
	t.Helper()
	resp := do(t, http.MethodPost, "http://"+reg.Host()+"/v2/test/blobs/uploads/", user, password, "")
	if resp.StatusCode != http.StatusAccepted {
		t.Fatalf("starting an upload: %d", resp.StatusCode)
	}
	location := resp.Header.Get("Location")
	if !strings.HasPrefix(location, "http") {
		location = "http://" + reg.Host() + location
	}
	digest := sha256Digest(content)
	sep := "?"
	if strings.Contains(location, "?") {
		sep = "&"
	}
	resp = do(t, http.MethodPut, location+sep+"digest="+digest, user, password, content)
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("finishing the upload: %d", resp.StatusCode)
	}
	return digest
}

// reply is a response read whole, its body closed.
type reply struct {
	StatusCode int
	Header     http.Header
	Body       []byte
}

func get(t *testing.T, url, user, password string) reply {
	t.Helper()
	return do(t, http.MethodGet, url, user, password, "")
}

func do(t *testing.T, method, url, user, password, body string) reply {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if user != "" {
		req.SetBasicAuth(user, password)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = resp.Body.Close() }()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return reply{StatusCode: resp.StatusCode, Header: resp.Header, Body: b}
}

func sha256Digest(content string) string {
	return fmt.Sprintf("sha256:%x", sha256.Sum256([]byte(content)))
}
