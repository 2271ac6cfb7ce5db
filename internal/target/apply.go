package target

import (
	"context"
	"errors"
	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/json"
	"k8s.io/client-go/rest"
)

// ApplyMetadata sends the server-side apply of obj that the dynamic
// client's Apply sends (same body, content type and parameters) but asks
// the API server for only the object's metadata in return. A deployer
// needs the UID of what it wrote, not the object: the full response cost
// the API server its encoding and this client its decoding into a map
// (the largest share of the client's CPU per write at 1,000 items), and
// an inventory Secret's response carried its whole record back.
// namespace is "" for cluster-scoped objects.
func (c *Clients) ApplyMetadata(ctx context.Context, gvr schema.GroupVersionResource, namespace, name string, obj *unstructured.Unstructured, opts metav1.ApplyOptions) (*metav1.PartialObjectMetadata, error) {
	// The dynamic client's checks, with its error texts.
	if name == "" {
		return nil, errors.New("name is required")
	}
	if msgs := rest.IsValidPathSegmentName(namespace); len(msgs) != 0 {
		return nil, fmt.Errorf("invalid namespace %q: %v", namespace, msgs)
	}
	if msgs := rest.IsValidPathSegmentName(name); len(msgs) != 0 {
		return nil, fmt.Errorf("invalid resource name %q: %v", name, msgs)
	}
	if len(obj.GetManagedFields()) > 0 {
		return nil, errors.New("cannot apply an object with managed fields already set")
	}
	// What client-go's apply.NewRequest sends without the CBOR client
	// feature gates (alpha, off unless set in the environment).
	body, err := json.Marshal(obj.Object)
	if err != nil {
		return nil, fmt.Errorf("failed to marshal apply configuration: %w", err)
	}
	client := c.Metadata.Resource(gvr)
	if namespace != "" {
		return client.Namespace(namespace).Patch(ctx, name, types.ApplyYAMLPatchType, body, opts.ToPatchOptions())
	}
	return client.Patch(ctx, name, types.ApplyYAMLPatchType, body, opts.ToPatchOptions())
}
