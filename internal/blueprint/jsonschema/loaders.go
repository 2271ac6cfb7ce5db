package jsonschema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"strings"

	sjs "github.com/santhosh-tekuri/jsonschema/v6"
	"sigs.k8s.io/yaml"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint/component"
)

// maxSchemaBytes bounds a referenced schema document.
const maxSchemaBytes = 4 << 20

// localLoader resolves `local://<name>` to the blueprint's localTypes.
type localLoader map[string]json.RawMessage

func (l localLoader) Load(url string) (any, error) {
	name := strings.TrimSuffix(strings.TrimPrefix(url, "local://"), "/")
	schema, ok := l[name]
	if !ok {
		return nil, fmt.Errorf("local type %q is not defined in localTypes", name)
	}
	return sjs.UnmarshalJSON(bytes.NewReader(schema))
}

// blueprintLoader resolves `blueprint://<path>` to a file of the blueprint.
type blueprintLoader struct{ files fs.FS }

func (l blueprintLoader) Load(url string) (any, error) {
	name := strings.TrimPrefix(strings.TrimPrefix(url, "blueprint://"), "/")
	if l.files == nil {
		return nil, fmt.Errorf("%s: the blueprint has no filesystem", url)
	}
	if !fs.ValidPath(name) {
		return nil, fmt.Errorf("%s: not a path inside the blueprint", url)
	}
	info, err := fs.Stat(l.files, name)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", url, err)
	}
	if info.Size() > maxSchemaBytes {
		return nil, fmt.Errorf("%s: larger than %d bytes", url, maxSchemaBytes)
	}
	data, err := fs.ReadFile(l.files, name)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", url, err)
	}
	return decodeSchemaDocument(url, data)
}

// componentLoader resolves `cd://…/resources/<name>` to the content of a
// component resource (a JSON schema blob).
type componentLoader struct{ comp *component.Component }

func (l componentLoader) Load(url string) (any, error) {
	content, err := l.comp.ResourceContent(url)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", url, err)
	}
	return decodeSchemaDocument(url, []byte(content))
}

// decodeSchemaDocument reads JSON, or YAML for convenience.
func decodeSchemaDocument(url string, data []byte) (any, error) {
	doc, err := sjs.UnmarshalJSON(bytes.NewReader(data))
	if err == nil {
		return doc, nil
	}
	jsonData, yerr := yaml.YAMLToJSON(data)
	if yerr != nil {
		return nil, fmt.Errorf("%s: schema is neither JSON nor YAML: %w", url, err)
	}
	return sjs.UnmarshalJSON(bytes.NewReader(jsonData))
}
