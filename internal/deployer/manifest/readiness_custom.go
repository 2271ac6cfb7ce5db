package manifest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/util/jsonpath"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
)

// CustomCheck is one custom readiness check: objects selected by
// reference or by labels, and requirements each of them must meet.
type CustomCheck struct {
	Name             string         `json:"name"`
	Disabled         bool           `json:"disabled,omitempty"`
	ResourceSelector []ObjectRef    `json:"resourceSelector,omitempty"`
	LabelSelector    *LabelSelector `json:"labelSelector,omitempty"`
	Requirements     []Requirement  `json:"requirements"`
	// TargetName names another target of the installation to wait on
	// (targets.go).
	TargetName *string `json:"targetName,omitempty"`
}

// LabelSelector selects objects of one kind by labels.
type LabelSelector struct {
	APIVersion string            `json:"apiVersion"`
	Kind       string            `json:"kind"`
	Labels     map[string]string `json:"matchLabels"`
}

// Requirement compares the value at JSONPath with Values. Operators are
// Kubernetes selection operators: exists, "!" (does not exist), "=", "==",
// "!=", in, notin.
type Requirement struct {
	JSONPath string             `json:"jsonPath"`
	Operator string             `json:"operator"`
	Values   []RequirementValue `json:"values,omitempty"`
}

// RequirementValue is one entry of a requirement's values, in Landscaper's
// form: an object whose value field holds the value to compare with
// (`values: [{value: "true"}]`). Decoding never fails on the entry's
// shape, so that validate can name the entry; an entry that is not such
// an object is refused there, as Landscaper refuses it.
type RequirementValue struct {
	Value json.RawMessage `json:"value"`
	// shape is "" for {value: …}, else what the entry is instead.
	shape string
}

// UnmarshalJSON keeps the entry's value and remembers what is wrong with
// an entry that is not {value: …}.
func (v *RequirementValue) UnmarshalJSON(b []byte) error {
	var obj map[string]json.RawMessage
	switch t := strings.TrimSpace(string(b)); {
	case !strings.HasPrefix(t, "{"):
		// Not an object: validate refuses it, naming the entry.
		*v = RequirementValue{shape: "a " + jsonKind(b) + ", not an object {value: …}"}
	case json.Unmarshal(b, &obj) != nil || obj["value"] == nil:
		*v = RequirementValue{shape: "an object without the field value"}
	default:
		*v = RequirementValue{Value: obj["value"]} // null too, as Landscaper accepts it
	}
	return nil
}

// MarshalJSON writes the entry back in Landscaper's form.
func (v RequirementValue) MarshalJSON() ([]byte, error) {
	val := v.Value
	if len(val) == 0 {
		val = json.RawMessage("null")
	}
	return json.Marshal(map[string]json.RawMessage{"value": val})
}

// jsonKind names the kind of a JSON document for messages, without
// quoting it (a configuration may hold secrets).
func jsonKind(b []byte) string {
	switch t := strings.TrimSpace(string(b)); {
	case t == "null":
		return "null"
	case strings.HasPrefix(t, `"`):
		return "string"
	case strings.HasPrefix(t, "["):
		return "list"
	case t == "true" || t == "false":
		return "boolean"
	default:
		return "number"
	}
}

func (r Requirement) validate() error {
	if strings.TrimSpace(r.JSONPath) == "" {
		return errors.New("jsonPath is required")
	}
	if _, err := compileJSONPath(r.JSONPath); err != nil {
		return err
	}
	// Landscaper's validation: the comparing operators need a value, and
	// only in and notin take more than one.
	switch r.Operator {
	case "exists", "!":
		if len(r.Values) > 1 {
			return fmt.Errorf("operator %q takes at most one value", r.Operator)
		}
	case "=", "==", "!=":
		if len(r.Values) != 1 {
			return fmt.Errorf("operator %q needs exactly one value", r.Operator)
		}
	case "in", "notin":
		if len(r.Values) == 0 {
			return fmt.Errorf("operator %q needs values", r.Operator)
		}
	default:
		return fmt.Errorf("operator %q is not one of exists, !, =, ==, !=, in, notin", r.Operator)
	}
	for i, v := range r.Values {
		if v.shape != "" {
			return fmt.Errorf("values[%d] is %s: Landscaper compares each entry's value field, so write values: [{value: …}]", i, v.shape)
		}
	}
	return nil
}

// compileJSONPath accepts Landscaper's brace-less form (".status.phase",
// also without the leading dot) as well as kubectl's ("{.status.phase}").
func compileJSONPath(path string) (*jsonpath.JSONPath, error) {
	p := strings.TrimSpace(path)
	if !strings.HasPrefix(p, "{") {
		if !strings.HasPrefix(p, ".") && !strings.HasPrefix(p, "$") {
			p = "." + p // Landscaper's "status.phase" means ".status.phase"
		}
		p = "{" + p + "}"
	}
	jp := jsonpath.New("path")
	if err := jp.Parse(p); err != nil {
		return nil, fmt.Errorf("invalid jsonPath %q: %w", path, err)
	}
	return jp, nil
}

// LookupJSONPath returns the value at path in obj (a list when the path
// matches several); found is false when the path does not exist.
func LookupJSONPath(obj any, path string) (value any, found bool, err error) {
	values, found, err := lookup(obj, path)
	if err != nil || !found {
		return nil, found, err
	}
	if len(values) == 1 {
		return values[0], true, nil
	}
	return values, true, nil
}

// lookup returns the values at path in obj; found is false when the path
// does not exist.
func lookup(obj any, path string) (values []any, found bool, err error) {
	jp, err := compileJSONPath(path)
	if err != nil {
		return nil, false, err
	}
	results, err := jp.FindResults(obj)
	if err != nil {
		if strings.Contains(err.Error(), "is not found") {
			return nil, false, nil
		}
		return nil, false, err
	}
	for _, r := range results {
		for _, v := range r {
			values = append(values, v.Interface())
		}
	}
	return values, len(values) > 0, nil
}

// met reports whether obj meets r, and if not, why. As in Landscaper, a
// path that selects nothing fails every operator but "!", and a path
// that selects several values needs each of them to meet the operator.
func (r Requirement) met(obj map[string]any) (string, error) {
	values, found, err := lookup(obj, r.JSONPath)
	if err != nil {
		return "", err
	}
	switch {
	case !found && r.Operator == "!":
		return "", nil
	case !found:
		return fmt.Sprintf("%s does not exist", r.JSONPath), nil
	case r.Operator == "!":
		return fmt.Sprintf("%s exists", r.JSONPath), nil
	case r.Operator == "exists":
		return "", nil
	}
	for _, actual := range values {
		in := false
		for _, v := range r.Values {
			if jsonEqual(actual, v.Value) {
				in = true
				break
			}
		}
		if in == (r.Operator == "!=" || r.Operator == "notin") {
			got, _ := json.Marshal(actual)
			allowed := make([]string, 0, len(r.Values))
			for _, v := range r.Values {
				allowed = append(allowed, string(v.Value))
			}
			return fmt.Sprintf("%s is %s, want %s [%s]", r.JSONPath, got, r.Operator, strings.Join(allowed, ", ")), nil
		}
	}
	return "", nil
}

// jsonEqual compares a decoded value with a JSON document by value, as
// Landscaper does: both as JSON decodes them (numbers as float64).
func jsonEqual(actual any, raw json.RawMessage) bool {
	var want, have any
	if json.Unmarshal(raw, &want) != nil {
		return false
	}
	b, err := json.Marshal(actual)
	if err != nil || json.Unmarshal(b, &have) != nil {
		return false
	}
	return reflect.DeepEqual(want, have)
}

// customNotReady returns why the objects of cc do not meet its
// requirements; an object it names that does not exist (yet) is not ready.
func customNotReady(ctx context.Context, r reader, cc CustomCheck) (string, error) {
	var objs []unstructured.Unstructured
	for _, ref := range cc.ResourceSelector {
		live, err := r.get(ctx, ref)
		if err != nil {
			return "", fmt.Errorf("readiness check %q: %w", cc.Name, err)
		}
		if live == nil {
			return fmt.Sprintf("readiness check %q: %s does not exist", cc.Name, ref), nil
		}
		objs = append(objs, *live)
	}
	if ls := cc.LabelSelector; ls != nil {
		list, err := r.selected(ctx, ls)
		if err != nil {
			return "", fmt.Errorf("readiness check %q: %w", cc.Name, err)
		}
		objs = append(objs, list...)
	}
	if len(objs) == 0 {
		return fmt.Sprintf("readiness check %q selects no object", cc.Name), nil
	}
	for _, o := range objs {
		for _, req := range cc.Requirements {
			why, err := req.met(o.Object)
			if err != nil {
				return "", fmt.Errorf("readiness check %q: %w", cc.Name, err)
			}
			if why != "" {
				return fmt.Sprintf("readiness check %q: %s: %s", cc.Name, deployer.RefOf(o.Object), why), nil
			}
		}
	}
	return "", nil
}
