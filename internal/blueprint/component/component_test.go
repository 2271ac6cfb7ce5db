package component

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"testing/fstest"
)

// TestParseDescriptor_Errors proves descriptors other than valid v2 or v3alpha1 are
// rejected with the reason.
func TestParseDescriptor_Errors(t *testing.T) {
	cases := map[string]struct{ doc, want string }{
		"not yaml":       {"meta: [", "not valid YAML"},
		"unknown schema": {"meta: {schemaVersion: v3}\ncomponent: {name: a, version: b}", "only \"v2\""},
		"unknown api":    {"apiVersion: ocm.software/v4\nmetadata: {name: a, version: b}", "only \"ocm.software/v3alpha1\""},
		"v3 wrong kind":  {"apiVersion: ocm.software/v3alpha1\nkind: Other\nmetadata: {name: a, version: b}", "want ComponentVersion"},
		"v3 no version":  {"apiVersion: ocm.software/v3alpha1\nmetadata: {name: a}", "name and version"},
		"no name":        {"meta: {schemaVersion: v2}\ncomponent: {version: b}", "name and version"},
		"wrong shape":    {"meta: {schemaVersion: v2}\ncomponent: {resources: 5}", "schema v2"},
		"empty document": {"---\n", "empty"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			_, err := FromInline([]byte(tc.doc))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("want error containing %q, got %v", tc.want, err)
			}
		})
	}
}

// TestParseReference_Table proves both reference spellings resolve to the
// same path and resource selector.
func TestParseReference_Table(t *testing.T) {
	cases := map[string]struct {
		ref, want string
		wantErr   bool
	}{
		"own resource":       {ref: "cd://resources/chart", want: "[] map[name:chart]"},
		"nested path":        {ref: "cd://componentReferences/a/componentReferences/b/resources/chart", want: "[map[name:a] map[name:b]] map[name:chart]"},
		"relative reference": {ref: "resource: {name: chart}\nreferencePath: [{name: a}]", want: "[map[name:a]] map[name:chart]"},
		"missing resource":   {ref: "cd://componentReferences/a", wantErr: true},
		"wrong segment":      {ref: "cd://sources/a/resources/b", wantErr: true},
		"garbage":            {ref: "not a reference", wantErr: true},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			path, res, err := parseReference(tc.ref)
			if (err != nil) != tc.wantErr {
				t.Fatalf("err = %v", err)
			}
			if err == nil {
				maps := make([]map[string]string, len(path))
				for i, p := range path {
					maps[i] = p
				}
				got := fmt.Sprint(maps, " ", map[string]string(res))
				if got != tc.want {
					t.Errorf("got %s, want %s", got, tc.want)
				}
			}
		})
	}
}

// TestExtractTar_Confined proves archive entries cannot escape the blueprint
// and both plain and gzip tars are read.
func TestExtractTar_Confined(t *testing.T) {
	build := func(name string, gz bool) *bytes.Buffer {
		var buf bytes.Buffer
		var tw *tar.Writer
		var zw *gzip.Writer
		if gz {
			zw = gzip.NewWriter(&buf)
			tw = tar.NewWriter(zw)
		} else {
			tw = tar.NewWriter(&buf)
		}
		_ = tw.WriteHeader(&tar.Header{Name: name, Mode: 0o644, Size: 2, Typeflag: tar.TypeReg})
		_, _ = tw.Write([]byte("ok"))
		_ = tw.Close()
		if zw != nil {
			_ = zw.Close()
		}
		return &buf
	}
	for _, gz := range []bool{false, true} {
		files, err := ExtractTar(build("dir/blueprint.yaml", gz))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := files.Open("dir/blueprint.yaml"); err != nil {
			t.Errorf("gzip=%v: %v", gz, err)
		}
		if _, err := ExtractTar(build("../../escape", gz)); err == nil {
			t.Errorf("gzip=%v: escaping entry accepted", gz)
		}
	}
}

// TestBlobPath_Confined proves local blob references stay inside blobs/.
func TestBlobPath_Confined(t *testing.T) {
	c := &Component{Archive: fstest.MapFS{"blobs/x": {Data: []byte("x")}}}
	for _, access := range []string{
		`{"type": "localFilesystemBlob", "filename": "../component-descriptor.yaml"}`,
		`{"type": "localBlob", "localReference": "../../etc/passwd"}`,
		`{"type": "ociRegistry", "imageReference": "x:1"}`,
	} {
		if _, _, err := c.BlobPath(Resource{Access: json.RawMessage(access)}); err == nil {
			t.Errorf("%s accepted", access)
		}
	}
	if name, _, err := c.BlobPath(Resource{Access: json.RawMessage(`{"type": "localFilesystemBlob", "filename": "x"}`)}); err != nil || name != "blobs/x" {
		t.Errorf("got %q, %v", name, err)
	}
}

// TestParseResourceKey_RoundTrip proves a key made by ResourceKey names
// the same component version and resource.
func TestParseResourceKey_RoundTrip(t *testing.T) {
	c, err := FromInline([]byte(exampleV2))
	if err != nil {
		t.Fatal(err)
	}
	key, err := c.ResourceKey("cd://resources/chart")
	if err != nil {
		t.Fatal(err)
	}
	name, version, sel, err := ParseResourceKey(key)
	if err != nil || name != "example.com/app" || version != "1.0.0" || sel["name"] != "chart" {
		t.Fatalf("got %s %s %v %v", name, version, sel, err)
	}
	if res, err := c.Resource(sel); err != nil || res.Type != "helmChart" {
		t.Errorf("resource %+v, %v", res, err)
	}
	for _, bad := range []string{"%%%", "bm90IHlhbWw6IFs="} {
		if _, _, _, err := ParseResourceKey(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}
