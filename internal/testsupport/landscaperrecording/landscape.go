package landscaperrecording

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"path"
	"regexp"
	"sort"
	"strings"
	"time"

	"helm.sh/helm/v3/pkg/chart/loader"
	"helm.sh/helm/v3/pkg/registry"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/yaml"
)

// Landscape is a landscape's inputs, ready to apply: what a user applies
// to the host cluster before Landscaper's controllers take over.
type Landscape struct {
	Name string `json:"-"`
	// HostNamespace holds the inputs and Landscaper's objects;
	// TargetNamespace is where the landscape deploys to.
	HostNamespace   string `json:"hostNamespace"`
	TargetNamespace string `json:"targetNamespace"`
	// Push are the charts to push to ${REGISTRY}/charts/<name>:<version>
	// before the Installations are applied.
	Push []string `json:"push"`
	// Objects are the Secrets, Targets, DataObjects and Contexts of
	// objects.yaml.
	Objects []*unstructured.Unstructured `json:"-"`
	// Installations are the root Installations, each with the inline
	// blueprint of blueprints/<name>.
	Installations []*unstructured.Unstructured `json:"-"`
	// Charts are the packaged charts of charts/, by name.
	Charts map[string][]byte `json:"-"`
}

// LandscapeOptions fill in the inputs' placeholders.
type LandscapeOptions struct {
	// Kubeconfig replaces ${KUBECONFIG} (as a quoted string).
	Kubeconfig string
	// Registry replaces ${REGISTRY}: host:port of an OCI registry.
	Registry string
}

// The inputs' placeholders besides ${KUBECONFIG} and ${REGISTRY}:
// ${CHART:<name>} is the base64 of charts/<name> packaged.
var chartPlaceholder = regexp.MustCompile(`\$\{CHART:([a-z0-9-]+)\}`)

// BuildLandscape reads the inputs of landscape name (testdata/landscapes/
// <name>: objects.yaml, installations/*.yaml, blueprints/<installation>/,
// charts/<chart>/) and fills in their placeholders.
func BuildLandscape(name string, opts LandscapeOptions) (*Landscape, error) {
	root, err := fs.Sub(inputs, "testdata/landscapes/"+name)
	if err != nil {
		return nil, err
	}
	l := &Landscape{}
	desc, err := fs.ReadFile(root, "landscape.yaml")
	if err != nil {
		return nil, err
	}
	if err := yaml.UnmarshalStrict(desc, l); err != nil {
		return nil, fmt.Errorf("landscape.yaml: %w", err)
	}
	l.Name, l.Charts = name, map[string][]byte{}
	charts, err := fs.ReadDir(root, "charts")
	if err != nil {
		return nil, err
	}
	for _, c := range charts {
		if l.Charts[c.Name()], err = packageChart(root, "charts/"+c.Name()); err != nil {
			return nil, fmt.Errorf("chart %s: %w", c.Name(), err)
		}
	}
	kubeconfig, err := json.Marshal(opts.Kubeconfig)
	if err != nil {
		return nil, err
	}
	fill := func(text string) (string, error) {
		var missing []string
		text = chartPlaceholder.ReplaceAllStringFunc(text, func(m string) string {
			chart := chartPlaceholder.FindStringSubmatch(m)[1]
			if l.Charts[chart] == nil {
				missing = append(missing, chart)
			}
			return base64.StdEncoding.EncodeToString(l.Charts[chart])
		})
		if len(missing) > 0 {
			return "", fmt.Errorf("no chart %v in charts/", missing)
		}
		return strings.NewReplacer("${KUBECONFIG}", string(kubeconfig), "${REGISTRY}", opts.Registry).Replace(text), nil
	}
	objects, err := fs.ReadFile(root, "objects.yaml")
	if err != nil {
		return nil, err
	}
	text, err := fill(string(objects))
	if err != nil {
		return nil, fmt.Errorf("objects.yaml: %w", err)
	}
	if l.Objects, err = decodeStream([]byte(text), "objects.yaml"); err != nil {
		return nil, err
	}
	files, err := fs.Glob(root, "installations/*.yaml")
	if err != nil {
		return nil, err
	}
	for _, file := range files {
		inst, err := installation(root, file, fill)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", file, err)
		}
		l.Installations = append(l.Installations, inst)
	}
	return l, nil
}

// installation reads one root Installation and puts its blueprint's
// files into spec.blueprint.inline.filesystem (directories as objects,
// as Landscaper's inline filesystem has them).
func installation(root fs.FS, file string, fill func(string) (string, error)) (*unstructured.Unstructured, error) {
	raw, err := fs.ReadFile(root, file)
	if err != nil {
		return nil, err
	}
	objs, err := decodeStream(raw, file)
	if err != nil {
		return nil, err
	}
	if len(objs) != 1 || objs[0].GetKind() != "Installation" {
		return nil, fmt.Errorf("not one Installation")
	}
	inst := objs[0]
	dir := "blueprints/" + inst.GetName()
	filesystem := map[string]any{}
	err = fs.WalkDir(root, dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		content, err := fs.ReadFile(root, p)
		if err != nil {
			return err
		}
		text, err := fill(string(content))
		if err != nil {
			return fmt.Errorf("%s: %w", p, err)
		}
		at := filesystem
		parts := strings.Split(strings.TrimPrefix(p, dir+"/"), "/")
		for _, d := range parts[:len(parts)-1] {
			sub, _ := at[d].(map[string]any)
			if sub == nil {
				sub = map[string]any{}
				at[d] = sub
			}
			at = sub
		}
		at[parts[len(parts)-1]] = text
		return nil
	})
	if err != nil {
		return nil, err
	}
	if err := unstructured.SetNestedMap(inst.Object, filesystem, "spec", "blueprint", "inline", "filesystem"); err != nil {
		return nil, err
	}
	return inst, nil
}

// packageChart packs a chart folder as `helm package` would, but with
// the same bytes every time (sorted entries, no times), so a re-recording
// renders the same deploy item configurations.
func packageChart(root fs.FS, dir string) ([]byte, error) {
	name := path.Base(dir)
	var files []string
	err := fs.WalkDir(root, dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			files = append(files, p)
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	sort.Strings(files)
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	for _, f := range files {
		content, err := fs.ReadFile(root, f)
		if err != nil {
			return nil, err
		}
		hdr := &tar.Header{Name: name + "/" + strings.TrimPrefix(f, dir+"/"), Mode: 0o644, Size: int64(len(content)),
			ModTime: time.Unix(0, 0), Typeflag: tar.TypeReg, Format: tar.FormatUSTAR}
		if err := tw.WriteHeader(hdr); err != nil {
			return nil, err
		}
		if _, err := tw.Write(content); err != nil {
			return nil, err
		}
	}
	if err := tw.Close(); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// PushCharts pushes the charts of Push to the OCI registry at host
// (plain HTTP, loopback) as <host>/charts/<name>:<version>, where the
// landscape's Installations pull them: what a replay of its recordings
// needs for the provider to render those items again.
func (l *Landscape) PushCharts(host string) ([]string, error) {
	client, err := registry.NewClient(registry.ClientOptPlainHTTP(), registry.ClientOptWriter(io.Discard))
	if err != nil {
		return nil, err
	}
	var refs []string
	for _, name := range l.Push {
		chart := l.Charts[name]
		ch, err := loader.LoadArchive(bytes.NewReader(chart))
		if err != nil {
			return nil, fmt.Errorf("chart %s: %w", name, err)
		}
		ref := fmt.Sprintf("%s/charts/%s:%s", host, name, ch.Metadata.Version)
		if _, err := client.Push(chart, ref); err != nil {
			return nil, fmt.Errorf("pushing %s: %w", ref, err)
		}
		refs = append(refs, ref)
	}
	return refs, nil
}
