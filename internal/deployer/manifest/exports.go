package manifest

import (
	"context"
	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// ReadExports reads each export from its resource, on the cluster of the
// target it names (targetName) or the session's; an export whose value is
// an object reference (fromObjectRef) is followed to that object there.
func (s *Session) ReadExports(ctx context.Context, exports []Export) (map[string]any, error) {
	if len(exports) == 0 {
		return nil, nil
	}
	out := make(map[string]any, len(exports))
	for _, e := range exports {
		from, err := s.on(e.TargetName) // another target's cluster (targets.go)
		if err != nil {
			return nil, fmt.Errorf("export %q: %w", e.Key, err)
		}
		v, err := from.readExport(ctx, e)
		if err != nil {
			return nil, fmt.Errorf("export %q: %w", e.Key, err)
		}
		out[e.Key] = v
	}
	return out, nil
}

func (s *Session) readExport(ctx context.Context, e Export) (any, error) {
	if e.FromResource == nil {
		return nil, fmt.Errorf("fromResource is missing")
	}
	v, err := s.readPath(ctx, *e.FromResource, e.JSONPath)
	if err != nil || e.FromObjectRef == nil {
		return v, err
	}
	ref, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("%s at %s is not an object reference {name, namespace}", e.FromResource, e.JSONPath)
	}
	name, _ := ref["name"].(string)
	namespace, _ := ref["namespace"].(string)
	next := ObjectRef{APIVersion: e.FromObjectRef.APIVersion, Kind: e.FromObjectRef.Kind, Name: name, Namespace: namespace}
	return s.readPath(ctx, next, e.FromObjectRef.JSONPath)
}

func (s *Session) readPath(ctx context.Context, ref ObjectRef, path string) (any, error) {
	client, m, err := s.resourceFor(ref)
	if err != nil {
		return nil, err
	}
	if m.Namespaced && ref.Namespace == "" {
		client = s.client(m, s.namespace)
	}
	live, err := client.Get(ctx, ref.Name, metav1.GetOptions{})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", ref, err)
	}
	values, found, err := lookup(live.Object, path)
	if err != nil {
		return nil, err
	}
	if !found {
		return nil, fmt.Errorf("%s has no value at %s", ref, path)
	}
	if len(values) == 1 {
		return values[0], nil
	}
	return values, nil
}
