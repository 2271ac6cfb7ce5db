package template

import (
	"strings"
	"testing"
)

// TestParseOCIRef_Landscaper proves references split as Landscaper's
// parseOCIRef splits them (see ParseOCIRef), and that what it rejects is
// an error here too.
func TestParseOCIRef_Landscaper(t *testing.T) {
	sha := "sha256:" + strings.Repeat("ab", 32)
	cases := []struct {
		ref, repo, version string
	}{
		{"myimage:0.0.0", "myimage", "0.0.0"},
		{"eu.gcr.io/p/img:1.2", "eu.gcr.io/p/img", "1.2"},
		{"localhost:5000/img:v1", "localhost:5000/img", "v1"},
		{"localhost:5000/img", "localhost:5000/img", "latest"},
		{"oci://eu.gcr.io/p/img:1.2", "eu.gcr.io/p/img", "1.2"},
		{"oci://nginx", "nginx", "latest"},
		{"img@" + sha, "img", sha},
		{"eu.gcr.io/p/img:v1@" + sha, "eu.gcr.io/p/img", sha},
		{"docker.io/library/ubuntu:18.04", "ubuntu", "18.04"},
		{"library/nginx:1.25", "nginx", "1.25"},
		{"index.docker.io/me/tool:1", "me/tool", "1"},
		{"me/tool:1", "me/tool", "1"},
		{"[::1]:5000/img:1", "[::1]:5000/img", "1"},
	}
	for _, tc := range cases {
		got, err := ParseOCIRef(tc.ref)
		if err != nil || got[0] != tc.repo || got[1] != tc.version {
			t.Errorf("%s: got %v, %v; want [%s %s]", tc.ref, got, err, tc.repo, tc.version)
		}
	}
	for ref, want := range map[string]string{
		"ubuntu":                                `no ":"`,
		":tag":                                  "empty repository",
		"MyImage:1":                             "lowercase",
		"img:bad/tag":                           "registry",
		"img:" + strings.Repeat("t", 129):       "invalid tag",
		"img@sha256:abc":                        "invalid digest",
		"img@md5:" + strings.Repeat("a", 32):    "unsupported algorithm",
		"img@sha256:" + strings.Repeat("A", 64): "lower-case",
		"eu.gcr.io/p/im..g:1":                   "repository",
		"-bad.io/x:1":                           "registry",
		strings.Repeat("a", 64) + ":1":          "image ID",
	} {
		_, err := ParseOCIRef(ref)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v, want one containing %q", ref, err, want)
		}
	}
}
