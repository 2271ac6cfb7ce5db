package manifest

import (
	"context"
	"encoding/json"
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
	JSONPath string            `json:"jsonPath"`
	Operator string            `json:"operator"`
	Values   []json.RawMessage `json:"values,omitempty"`
}

func (r Requirement) validate() error {
	if _, err := compileJSONPath(r.JSONPath); err != nil {
		return err
	}
	switch r.Operator {
	case "exists", "!":
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
	return nil
}

// compileJSONPath accepts Landscaper's brace-less form (".status.phase")
// as well as kubectl's ("{.status.phase}").
func compileJSONPath(path string) (*jsonpath.JSONPath, error) {
	p := strings.TrimSpace(path)
	if !strings.HasPrefix(p, "{") {
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

// met reports whether obj meets r, and if not, why.
func (r Requirement) met(obj map[string]any) (string, error) {
	values, found, err := lookup(obj, r.JSONPath)
	if err != nil {
		return "", err
	}
	switch r.Operator {
	case "exists":
		if !found {
			return fmt.Sprintf("%s does not exist", r.JSONPath), nil
		}
		return "", nil
	case "!":
		if found {
			return fmt.Sprintf("%s exists", r.JSONPath), nil
		}
		return "", nil
	}
	var actual any
	if len(values) == 1 {
		actual = values[0]
	} else if found {
		actual = values
	}
	in := false
	for _, raw := range r.Values {
		if jsonEqual(actual, raw) {
			in = true
			break
		}
	}
	want := in
	if r.Operator == "!=" || r.Operator == "notin" {
		want = !in
	}
	if want {
		return "", nil
	}
	got, _ := json.Marshal(actual)
	var allowed []string
	for _, v := range r.Values {
		allowed = append(allowed, string(v))
	}
	return fmt.Sprintf("%s is %s, want %s [%s]", r.JSONPath, got, r.Operator, strings.Join(allowed, ", ")), nil
}

// jsonEqual compares a decoded value with a JSON document by value.
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
