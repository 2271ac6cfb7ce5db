package landscaperfixture

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
)

// ManifestFieldManager is the field manager of the objects the manifest
// deployer created (controller-runtime takes it from the deployer's
// binary name); it creates and updates, it does not apply server-side.
const ManifestFieldManager = "manifest-deployer-controller"

// Install creates the landscape (Create) in the cluster host points at
// and, when the test ends, takes Landscaper's finalizers off its objects
// so the namespace can go.
func Install(t testing.TB, host *rest.Config, opts Options) *Landscape {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	l, err := Create(ctx, host, opts)
	if l != nil {
		t.Cleanup(func() {
			if err := l.RemoveFinalizers(context.Background(), host); err != nil {
				t.Errorf("landscaperfixture: %v", err)
			}
		})
	}
	if err != nil {
		t.Fatalf("landscaperfixture: %v", err)
	}
	return l
}

// Create puts the landscape into the cluster host points at: the CRDs,
// what the deployers deployed into the target cluster (opts.Kubeconfig;
// both namespaces must exist), then the host objects with their status.
// It returns once the deployed workloads are ready, as Landscaper's
// deploy items only succeed then. The returned Landscape holds the
// objects as created (UIDs, resource versions).
func Create(ctx context.Context, host *rest.Config, opts Options) (*Landscape, error) {
	l := Build(opts)
	host = quiet(host)
	hostClient, err := dynamic.NewForConfig(host)
	if err != nil {
		return nil, err
	}
	targetConfig, err := clientcmd.RESTConfigFromKubeConfig([]byte(opts.Kubeconfig))
	if err != nil {
		return nil, fmt.Errorf("target kubeconfig: %w", err)
	}
	targetClient, err := dynamic.NewForConfig(targetConfig)
	if err != nil {
		return nil, err
	}
	if err := EnsureCRDs(ctx, hostClient); err != nil {
		return nil, err
	}
	uids := map[string]string{} // "Kind/namespace/name" of deployed objects → UID
	for i, obj := range l.Deployed {
		gvk := obj.GroupVersionKind()
		created, err := targetClient.Resource(gvk.GroupVersion().WithResource(resourceOf(gvk.Kind))).
			Namespace(obj.GetNamespace()).Create(ctx, obj, metav1.CreateOptions{FieldManager: ManifestFieldManager})
		if err != nil {
			return nil, fmt.Errorf("deploying %s %s: %w", obj.GetKind(), obj.GetName(), err)
		}
		l.Deployed[i] = created
		uids[created.GetKind()+"/"+created.GetNamespace()+"/"+created.GetName()] = string(created.GetUID())
	}
	if l.Release.Name != "" {
		if err := installRelease(targetConfig, opts.Kubeconfig, l.Release); err != nil {
			return nil, err
		}
	}
	if err := createHost(ctx, hostClient, l, uids); err != nil {
		return l, err
	}
	if err := waitAvailable(ctx, targetClient, opts.TargetNamespace, WebDeployment, ReleaseName); err != nil {
		return l, err
	}
	return l, nil
}

// resourceOf is the resource name of the deployed kinds.
func resourceOf(kind string) string {
	switch kind {
	case "ConfigMap":
		return "configmaps"
	case "Deployment":
		return "deployments"
	}
	panic("landscaperfixture: no resource for " + kind)
}

// createHost creates the host objects, owners before what they own and
// the objects of one generation in parallel: each owner reference gets
// its owner's UID, each manifest deploy item's managed resource the UID
// of the object deployed; then the status.
func createHost(ctx context.Context, client dynamic.Interface, l *Landscape, deployedUIDs map[string]string) error {
	owners := map[string]string{} // placeholder → UID
	for _, generation := range generations(l.Host) {
		created := make([]*unstructured.Unstructured, len(generation))
		errs := make([]error, len(generation))
		var wg sync.WaitGroup
		for j, i := range generation {
			obj := l.Host[i].DeepCopy()
			refs := obj.GetOwnerReferences()
			for k := range refs {
				refs[k].UID = types.UID(owners[string(refs[k].UID)])
			}
			obj.SetOwnerReferences(refs)
			fillManagedUIDs(obj, deployedUIDs)
			wg.Add(1)
			go func() {
				defer wg.Done()
				created[j], errs[j] = createOne(ctx, client, obj)
			}()
		}
		wg.Wait()
		if err := errors.Join(errs...); err != nil {
			return err
		}
		for j, i := range generation {
			owners[placeholderUID(created[j].GetKind(), created[j].GetName())] = string(created[j].GetUID())
			l.Host[i] = created[j]
		}
	}
	return nil
}

// createOne creates obj and then writes its status, if it has one.
func createOne(ctx context.Context, client dynamic.Interface, obj *unstructured.Unstructured) (*unstructured.Unstructured, error) {
	status, hasStatus := obj.Object["status"]
	res := client.Resource(GVR(obj.GetKind())).Namespace(obj.GetNamespace())
	created, err := res.Create(ctx, obj, metav1.CreateOptions{})
	if err != nil {
		return nil, fmt.Errorf("creating %s %s: %w", obj.GetKind(), obj.GetName(), err)
	}
	if hasStatus {
		created.Object["status"] = status
		if created, err = res.UpdateStatus(ctx, created, metav1.UpdateOptions{}); err != nil {
			return nil, fmt.Errorf("writing the status of %s %s: %w", obj.GetKind(), obj.GetName(), err)
		}
	}
	return created, nil
}

// generations groups the objects' indexes: first those without owners,
// then those whose owners are all in earlier groups, and so on.
func generations(objs []*unstructured.Unstructured) [][]int {
	level := map[string]int{}
	var out [][]int
	for placed := 0; placed < len(objs); {
		var next []int
		for i, o := range objs {
			if _, done := level[o.GetKind()+"/"+o.GetName()]; done {
				continue
			}
			ready := true
			for _, ref := range o.GetOwnerReferences() {
				if l, ok := level[ref.Kind+"/"+ref.Name]; !ok || l == len(out) {
					ready = false
				}
			}
			if ready {
				next = append(next, i)
			}
		}
		if len(next) == 0 {
			panic("landscaperfixture: an owner that is not in the landscape")
		}
		for _, i := range next {
			level[objs[i].GetKind()+"/"+objs[i].GetName()] = len(out)
		}
		out = append(out, next)
		placed += len(next)
	}
	return out
}

// fillManagedUIDs sets the UIDs of a manifest deploy item's managed
// resources, as the manifest deployer records them.
func fillManagedUIDs(obj *unstructured.Unstructured, uids map[string]string) {
	if obj.GetKind() != "DeployItem" {
		return
	}
	list, _, _ := unstructured.NestedSlice(obj.Object, "status", "providerStatus", "managedResources")
	for _, e := range list {
		entry, _ := e.(map[string]any)
		ref, _ := entry["resource"].(map[string]any)
		if ref == nil || entry["policy"] == nil {
			continue // the Helm deployer records no UIDs
		}
		if uid, ok := uids[fmt.Sprint(ref["kind"], "/", ref["namespace"], "/", ref["name"])]; ok {
			ref["uid"] = uid
		}
	}
	_ = unstructured.SetNestedSlice(obj.Object, list, "status", "providerStatus", "managedResources")
}

// RemoveFinalizers takes Landscaper's finalizer off every host object of
// the landscape (what Landscaper does when it deletes them), so that
// deleting them or their namespace completes. Objects already gone are
// skipped.
func (l *Landscape) RemoveFinalizers(ctx context.Context, host *rest.Config) error {
	client, err := dynamic.NewForConfig(quiet(host))
	if err != nil {
		return err
	}
	patch := []byte(`{"metadata":{"finalizers":null}}`)
	for _, obj := range l.Host {
		if len(obj.GetFinalizers()) == 0 && obj.GetKind() != "Installation" && obj.GetKind() != "Execution" && obj.GetKind() != "DeployItem" {
			continue
		}
		_, err := client.Resource(GVR(obj.GetKind())).Namespace(obj.GetNamespace()).
			Patch(ctx, obj.GetName(), types.MergePatchType, patch, metav1.PatchOptions{})
		if err != nil && !apierrors.IsNotFound(err) {
			return fmt.Errorf("removing the finalizer of %s %s: %w", obj.GetKind(), obj.GetName(), err)
		}
	}
	return nil
}

// quiet drops the API server's warnings (it advises against Landscaper's
// finalizer name on every write), which would flood test logs.
func quiet(c *rest.Config) *rest.Config {
	c = rest.CopyConfig(c)
	c.WarningHandler = rest.NoWarnings{}
	return c
}
