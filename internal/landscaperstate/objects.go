package landscaperstate

import (
	"context"
	"fmt"
	"strings"
	"sync"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/dynamic"
)

// Named is a DataObject or Target by kind ("DataObject", "Target") and
// name.
type Named struct{ Kind, Name string }

// ObjectsManifest reads the named DataObjects and Targets of namespace
// (in parallel) and returns them as one YAML stream in the form of
// Landscape.ManifestObjects: the metadata a user keeps, a Target's
// secretRef resolved into spec.config. An object that does not exist is
// left out, so the caller's translation names the reference. It holds
// credentials: treat it as sensitive.
func ObjectsManifest(ctx context.Context, client dynamic.Interface, namespace string, objects []Named) (string, error) {
	found := make([]*unstructured.Unstructured, len(objects))
	errs := make([]error, len(objects))
	var wg sync.WaitGroup
	for i, o := range objects {
		if o.Kind != "DataObject" && o.Kind != "Target" {
			return "", fmt.Errorf("%s %s/%s: only DataObjects and Targets are read", o.Kind, namespace, o.Name)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			u, err := client.Resource(gvr(strings.ToLower(o.Kind)+"s")).Namespace(namespace).Get(ctx, o.Name, metav1.GetOptions{})
			switch {
			case apierrors.IsNotFound(err):
			case err != nil:
				errs[i] = fmt.Errorf("reading %s %s/%s from the host cluster: %w", o.Kind, namespace, o.Name, err)
			default:
				found[i] = u
			}
		}()
	}
	wg.Wait()
	r := &reader{namespace: namespace}
	var docs []func() map[string]any
	for i, u := range found {
		switch {
		case errs[i] != nil:
			return "", errs[i]
		case u == nil:
		case objects[i].Kind == "DataObject":
			docs = append(docs, func() map[string]any { return dataObjectDoc(u) })
		default:
			t, err := r.target(u)
			if err != nil {
				return "", err
			}
			docs = append(docs, func() map[string]any { return targetDoc(t) })
		}
	}
	if err := r.readSecrets(ctx, client); err != nil {
		return "", err
	}
	return yamlStream(docs, "the host cluster's objects")
}
