package landscaperstate

import (
	"context"
	"encoding/base64"
	"fmt"
	"sync"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
)

// Resources of Landscaper's kinds in the host cluster.
var (
	installationsGVR = gvr("installations")
	executionsGVR    = gvr("executions")
	deployItemsGVR   = gvr("deployitems")
	dataObjectsGVR   = gvr("dataobjects")
	targetsGVR       = gvr("targets")
	contextsGVR      = gvr("contexts")
	secretsGVR       = schema.GroupVersionResource{Version: "v1", Resource: "secrets"}
)

func gvr(resource string) schema.GroupVersionResource {
	return schema.GroupVersionResource{Group: Group, Version: Version, Resource: resource}
}

// hostObjects is one namespace's Landscaper objects, by name.
type hostObjects struct {
	installations map[string]*wireInstallation
	executions    map[string]*wireExecution
	deployItems   map[string]*wireDeployItem
	dataObjects   map[string]*unstructured.Unstructured
	targets       map[string]*unstructured.Unstructured
	contexts      map[string]*unstructured.Unstructured
}

// listAll lists the six kinds in the namespace at once: one round trip
// each, in parallel, however large the landscape.
func listAll(ctx context.Context, client dynamic.Interface, namespace string) (*hostObjects, error) {
	kinds := []schema.GroupVersionResource{installationsGVR, executionsGVR, deployItemsGVR, dataObjectsGVR, targetsGVR, contextsGVR}
	lists := make([][]unstructured.Unstructured, len(kinds))
	errs := make([]error, len(kinds))
	var wg sync.WaitGroup
	for i, res := range kinds {
		wg.Add(1)
		go func() {
			defer wg.Done()
			l, err := client.Resource(res).Namespace(namespace).List(ctx, metav1.ListOptions{})
			if err != nil {
				errs[i] = fmt.Errorf("listing %s in namespace %s: %w", res.Resource, namespace, err)
				return
			}
			lists[i] = l.Items
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	h := &hostObjects{
		installations: map[string]*wireInstallation{}, executions: map[string]*wireExecution{},
		deployItems: map[string]*wireDeployItem{}, dataObjects: byName(lists[3]), targets: byName(lists[4]), contexts: byName(lists[5]),
	}
	if err := decodeAll(lists[0], h.installations); err != nil {
		return nil, err
	}
	if err := decodeAll(lists[1], h.executions); err != nil {
		return nil, err
	}
	if err := decodeAll(lists[2], h.deployItems); err != nil {
		return nil, err
	}
	return h, nil
}

func byName(items []unstructured.Unstructured) map[string]*unstructured.Unstructured {
	out := make(map[string]*unstructured.Unstructured, len(items))
	for i := range items {
		out[items[i].GetName()] = &items[i]
	}
	return out
}

func decodeAll[T any](items []unstructured.Unstructured, into map[string]*T) error {
	for i := range items {
		v := new(T)
		if err := decodeInto(&items[i], v); err != nil {
			return err
		}
		into[items[i].GetName()] = v
	}
	return nil
}

// secretReads fetches Secrets by name, several at a time.
type secretReads struct {
	client    dynamic.Interface
	namespace string
}

// maxParallelReads bounds the Secret GETs in flight.
const maxParallelReads = 16

// secretData holds one Secret's data (decoded), or nil when it does not
// exist.
type secretData map[string][]byte

// get reads the named Secrets in parallel.
func (s secretReads) get(ctx context.Context, names []string) (map[string]secretData, error) {
	out := make(map[string]secretData, len(names))
	var mu sync.Mutex
	var firstErr error
	slots := make(chan struct{}, maxParallelReads)
	var wg sync.WaitGroup
	for _, name := range names {
		wg.Add(1)
		slots <- struct{}{}
		go func() {
			defer func() { <-slots; wg.Done() }()
			data, err := s.one(ctx, name)
			mu.Lock()
			defer mu.Unlock()
			if err != nil && firstErr == nil {
				firstErr = err
			}
			out[name] = data
		}()
	}
	wg.Wait()
	return out, firstErr
}

func (s secretReads) one(ctx context.Context, name string) (secretData, error) {
	u, err := s.client.Resource(secretsGVR).Namespace(s.namespace).Get(ctx, name, metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading Secret %s/%s: %w", s.namespace, name, err)
	}
	raw, _, err := unstructured.NestedStringMap(u.Object, "data")
	if err != nil {
		return nil, fmt.Errorf("reading Secret %s/%s: data: not a map of strings", s.namespace, name)
	}
	out := secretData{}
	for k, v := range raw {
		b, err := base64.StdEncoding.DecodeString(v)
		if err != nil {
			return nil, fmt.Errorf("reading Secret %s/%s: data.%s: not base64", s.namespace, name, k)
		}
		out[k] = b
	}
	return out, nil
}
