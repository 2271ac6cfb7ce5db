package landscaperrecording

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"sigs.k8s.io/yaml"
)

// Files of one recording, in its folder.
const (
	metaFile   = "recording.yaml"
	hostFile   = "host.yaml"
	targetFile = "target.yaml"
)

// KubeconfigPlaceholder stands for the target cluster's kubeconfig
// wherever the controllers saw it (Targets, their Secrets, Targets
// Landscaper copied or exported): a recording holds no credentials.
const KubeconfigPlaceholder = "${KUBECONFIG}"

// Recording is what Landscaper's controllers left in a cluster.
type Recording struct {
	Meta Meta
	// Host is every object in the host namespace that is Landscaper's
	// (its kinds) or a Secret, sorted by kind and name, with status.
	Host []*unstructured.Unstructured
	// Target is every object in the target namespace that no other object
	// owns (what the deployers created, Helm's release records), sorted
	// by kind and name, without status.
	Target []*unstructured.Unstructured
}

// Meta says what a recording is and where it was recorded.
type Meta struct {
	// Landscaper is the version of Landscaper's controllers ("v0.98") and
	// Source the commit they were built from.
	Landscaper string `json:"landscaper"`
	Source     string `json:"source"`
	// Landscape names the inputs (testdata/landscapes/<name>) and
	// Scenario what happened to them ("installed", "reconciled").
	Landscape string `json:"landscape"`
	Scenario  string `json:"scenario"`
	// Description says in a sentence what the scenario shows.
	Description string `json:"description,omitempty"`
	// HostNamespace held Landscaper's objects, TargetNamespace what the
	// deployers deployed; a replay renames both.
	HostNamespace   string `json:"hostNamespace"`
	TargetNamespace string `json:"targetNamespace"`
	// Registry is the host:port of the OCI registry the landscape pulled
	// charts from ("" for none); a replay may rename it.
	Registry string `json:"registry,omitempty"`
	// Roots are the root Installations, by name.
	Roots []string `json:"roots"`
	// Controllers are the controllers that ran, each with its settings.
	Controllers []Controller `json:"controllers"`
}

// Controller is one of Landscaper's controllers as it ran for a recording.
type Controller struct {
	Name     string   `json:"name"`
	Settings []string `json:"settings,omitempty"`
}

// Objects returns the host and the target objects.
func (r *Recording) Objects() []*unstructured.Unstructured {
	return append(append([]*unstructured.Unstructured{}, r.Host...), r.Target...)
}

// Find returns the host object of kind and name, nil if there is none.
func (r *Recording) Find(kind, name string) *unstructured.Unstructured {
	for _, o := range r.Host {
		if o.GetKind() == kind && o.GetName() == name {
			return o
		}
	}
	return nil
}

// OfKind returns the host objects of kind, in name order.
func (r *Recording) OfKind(kind string) []*unstructured.Unstructured {
	var out []*unstructured.Unstructured
	for _, o := range r.Host {
		if o.GetKind() == kind {
			out = append(out, o)
		}
	}
	return out
}

// DeepCopy copies the recording.
func (r *Recording) DeepCopy() *Recording {
	out := &Recording{Meta: r.Meta}
	out.Meta.Roots = append([]string(nil), r.Meta.Roots...)
	out.Meta.Controllers = append([]Controller(nil), r.Meta.Controllers...)
	for _, o := range r.Host {
		out.Host = append(out.Host, o.DeepCopy())
	}
	for _, o := range r.Target {
		out.Target = append(out.Target, o.DeepCopy())
	}
	return out
}

// kindOrder puts the kinds a reader meets first at the top of host.yaml.
var kindOrder = map[string]int{"Context": 1, "Target": 2, "DataObject": 3, "Secret": 4, "Installation": 5, "Execution": 6, "DeployItem": 7}

func sortObjects(objs []*unstructured.Unstructured) {
	sort.SliceStable(objs, func(i, j int) bool {
		a, b := objs[i], objs[j]
		ka, kb := kindOrder[a.GetKind()], kindOrder[b.GetKind()]
		if ka == 0 {
			ka = len(kindOrder) + 1
		}
		if kb == 0 {
			kb = len(kindOrder) + 1
		}
		switch {
		case ka != kb:
			return ka < kb
		case a.GetKind() != b.GetKind():
			return a.GetKind() < b.GetKind()
		default:
			return a.GetName() < b.GetName()
		}
	})
}

// Write writes the recording into dir (created if need be).
func (r *Recording) Write(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	meta, err := yaml.Marshal(r.Meta)
	if err != nil {
		return err
	}
	header := "# A recording of Landscaper's controllers: see tools/landscaper-record/README.md.\n"
	if err := os.WriteFile(filepath.Join(dir, metaFile), append([]byte(header), meta...), 0o644); err != nil {
		return err
	}
	for file, objs := range map[string][]*unstructured.Unstructured{hostFile: r.Host, targetFile: r.Target} {
		sortObjects(objs)
		text, err := yamlStream(objs)
		if err != nil {
			return fmt.Errorf("%s: %w", file, err)
		}
		if err := os.WriteFile(filepath.Join(dir, file), text, 0o644); err != nil {
			return err
		}
	}
	return nil
}

func yamlStream(objs []*unstructured.Unstructured) ([]byte, error) {
	var buf bytes.Buffer
	for _, o := range objs {
		text, err := yaml.Marshal(o.Object)
		if err != nil {
			return nil, fmt.Errorf("%s %s: %w", o.GetKind(), o.GetName(), err)
		}
		buf.WriteString("---\n")
		buf.Write(text)
	}
	return buf.Bytes(), nil
}

// Read reads the recording in dir of fsys.
func Read(fsys fs.FS, dir string) (*Recording, error) {
	raw, err := fs.ReadFile(fsys, dir+"/"+metaFile)
	if err != nil {
		return nil, err
	}
	r := &Recording{}
	if err := yaml.UnmarshalStrict(raw, &r.Meta); err != nil {
		return nil, fmt.Errorf("%s/%s: %w", dir, metaFile, err)
	}
	if r.Host, err = readStream(fsys, dir+"/"+hostFile); err != nil {
		return nil, err
	}
	if r.Target, err = readStream(fsys, dir+"/"+targetFile); err != nil {
		return nil, err
	}
	return r, nil
}

// readStream reads a YAML stream of objects.
func readStream(fsys fs.FS, file string) ([]*unstructured.Unstructured, error) {
	raw, err := fs.ReadFile(fsys, file)
	if err != nil {
		return nil, err
	}
	return decodeStream(raw, file)
}

func decodeStream(raw []byte, what string) ([]*unstructured.Unstructured, error) {
	reader := utilyaml.NewYAMLReader(bufio.NewReader(bytes.NewReader(raw)))
	var out []*unstructured.Unstructured
	for i := 0; ; i++ {
		doc, err := reader.Read()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, fmt.Errorf("%s: document %d: %w", what, i, err)
		}
		if strings.TrimSpace(strings.TrimPrefix(string(doc), "---")) == "" || onlyComments(doc) {
			continue
		}
		j, err := yaml.YAMLToJSON(doc)
		if err != nil {
			return nil, fmt.Errorf("%s: document %d: %w", what, i, err)
		}
		u := &unstructured.Unstructured{}
		if err := u.UnmarshalJSON(j); err != nil {
			return nil, fmt.Errorf("%s: document %d: %w", what, i, err)
		}
		out = append(out, u)
	}
}

func onlyComments(doc []byte) bool {
	for _, line := range strings.Split(string(doc), "\n") {
		line = strings.TrimSpace(line)
		if line != "" && line != "---" && !strings.HasPrefix(line, "#") {
			return false
		}
	}
	return true
}
