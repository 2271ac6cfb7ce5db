package external

import (
	"context"
	"fmt"
	"slices"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/dynamic"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/failure"
)

// Delete implements deployer.Deployer through Landscaper's deletion
// handshake: the DeployItem is deleted (its finalizer keeps it) and a job
// started; the deployer uninstalls and removes the finalizer, and the item
// is gone. With WithoutUninstall the item is marked so and this side
// removes the finalizer itself, as Landscaper does. The Target and Context
// go once the DeployItem is gone. What a newer instance of the
// installation adopted, and an object of that name that another deploy
// item owns, are left alone.
func (d *Deployer) Delete(ctx context.Context, item deployer.Item, opts deployer.DeleteOptions) error {
	if err := d.ready(item); err != nil {
		return err
	}
	prev, err := decodeStatus(item.ProviderStatus)
	if err != nil {
		return itemError(item, failure.NewTerminal("InvalidProviderStatus", err))
	}
	n, err := d.where(ctx, item, prev)
	if err != nil {
		return itemError(item, err)
	}
	return itemError(item, d.deleteAt(ctx, item, n, opts.WithoutUninstall, landscapersUID(item, prev)))
}

// deleteAt deletes item's objects at n; takeOver is the UID of the
// DeployItem of Landscaper's the item adopted and has not written yet
// ("" for none), which counts as the item's own.
func (d *Deployer) deleteAt(ctx context.Context, item deployer.Item, n names, withoutUninstall bool, takeOver string) error {
	res := d.client.Resource(DeployItems).Namespace(n.namespace)
	live, err := get(ctx, res, n.object)
	if err != nil {
		return fmt.Errorf("reading DeployItem %s/%s: %w", n.namespace, n.object, err)
	}
	own := ownershipOf(live, item)
	if own == foreign && takesOver(live, takeOver) {
		own = owned
	}
	switch own {
	case adopted:
		return nil // a newer instance holds it, with its Target and Context
	case owned:
		if err := d.deleteItem(ctx, item, res, live, withoutUninstall); err != nil {
			return err
		}
	}
	return d.deleteSupport(ctx, item, n)
}

// finishDeletion ends the deletion of a DeployItem that is already being
// deleted, through its deployer.
func (d *Deployer) finishDeletion(ctx context.Context, item deployer.Item, res dynamic.ResourceInterface, live *unstructured.Unstructured) error {
	return d.deleteItem(ctx, item, res, live, false)
}

// deleteItem deletes one DeployItem and returns once it is gone.
func (d *Deployer) deleteItem(ctx context.Context, item deployer.Item, res dynamic.ResourceInterface, live *unstructured.Unstructured, withoutUninstall bool) error {
	if withoutUninstall && live.GetAnnotations()[AnnotationDeleteWithoutUninstall] != "true" {
		patch := fmt.Appendf(nil, `{"metadata":{"annotations":{%q:"true"}}}`, AnnotationDeleteWithoutUninstall)
		patched, err := res.Patch(ctx, live.GetName(), types.MergePatchType, patch, metav1.PatchOptions{FieldManager: fieldManager})
		if apierrors.IsNotFound(err) {
			return nil
		} else if err != nil {
			return fmt.Errorf("marking %s for deletion without uninstall: %w", describe(live), err)
		}
		live = patched
	}
	if live.GetDeletionTimestamp() == nil {
		uid := live.GetUID()
		err := res.Delete(ctx, live.GetName(), metav1.DeleteOptions{Preconditions: &metav1.Preconditions{UID: &uid}})
		if apierrors.IsNotFound(err) {
			return nil
		} else if err != nil {
			return fmt.Errorf("deleting %s: %w", describe(live), err)
		}
		var readErr error
		if live, readErr = get(ctx, res, live.GetName()); readErr != nil || live == nil {
			return readErr
		}
	}
	for ctx.Err() == nil {
		// Without uninstall, or when no deployer ever worked on the item
		// (so none can have deployed anything for it), nothing needs the
		// deployer: the finalizer goes at once. Else the deployer must
		// uninstall, which a job tells it.
		if !withoutUninstall && statusOf(live).everReconciled() {
			return d.deletionJob(ctx, item, res, live)
		}
		next, err := d.forget(ctx, res, live, item)
		if err != nil || next == nil {
			return err
		}
		live = next // changed meanwhile: decide again
	}
	return ctx.Err()
}

// deletionJob tells the deployer to uninstall and waits until the
// DeployItem is gone or the deployer reports that it failed.
func (d *Deployer) deletionJob(ctx context.Context, item deployer.Item, res dynamic.ResourceInterface, live *unstructured.Unstructured) error {
	out, err := d.runJob(ctx, res, live, item)
	switch {
	case err != nil:
		return err
	case out.gone:
		return nil
	}
	if st := statusOf(out.obj); st.Phase != phaseSucceeded {
		return jobError(out.obj, st)
	}
	// The deployer is done; another finalizer still holds the object.
	return waitGone(ctx, res, out.obj, item)
}

// forget removes Landscaper's finalizer from a DeployItem being deleted
// and waits until it is gone (waitGone). A conflict returns the item as
// it is now, for the caller to decide again; nil: it is gone.
func (d *Deployer) forget(ctx context.Context, res dynamic.ResourceInterface, live *unstructured.Unstructured, item deployer.Item) (*unstructured.Unstructured, error) {
	if i := slices.Index(live.GetFinalizers(), Finalizer); i >= 0 {
		obj := live.DeepCopy()
		obj.SetFinalizers(slices.Delete(slices.Clone(live.GetFinalizers()), i, i+1))
		_, err := res.Update(ctx, obj, metav1.UpdateOptions{FieldManager: fieldManager})
		switch {
		case apierrors.IsNotFound(err):
			return nil, nil
		case apierrors.IsConflict(err):
			return get(ctx, res, live.GetName())
		case err != nil:
			return nil, fmt.Errorf("removing the finalizer of %s: %w", describe(live), err)
		}
	}
	return nil, waitGone(ctx, res, live, item)
}

// waitGone returns once obj no longer exists (other finalizers may hold
// it for a while), or fails after item's progressing timeout, which this
// side measures (deployer.HandsOff; 0: none). It only waits, so it gives
// the call's parallelism slot back meanwhile.
func waitGone(ctx context.Context, res dynamic.ResourceInterface, obj *unstructured.Unstructured, item deployer.Item) error {
	within := item.Timeouts.Progressing
	live, err := get(ctx, res, obj.GetName())
	if err != nil || live == nil || live.GetUID() != obj.GetUID() {
		return err
	}
	fctx, stop := context.WithCancel(ctx)
	defer stop()
	changes := follow(fctx, res, live)
	resume := item.GoIdle()
	defer func() {
		if ctx.Err() == nil { // a cancelled call only returns
			resume()
		}
	}()
	var timeout <-chan time.Time
	if within > 0 {
		t := time.NewTimer(within)
		defer t.Stop()
		timeout = t.C
	}
	for {
		select {
		case <-timeout:
			return failure.Terminalf(failure.ReasonProgressingTimeout, "%s is still there after the timeout of %s (finalizers %v)", describe(live), within, live.GetFinalizers())
		case c, open := <-changes:
			switch {
			case !open:
				return fmt.Errorf("waiting for %s to be gone: %w", describe(live), ctx.Err())
			case c.err != nil:
				return c.err
			case c.gone:
				return nil
			}
			live = c.obj
		case <-ctx.Done():
			return fmt.Errorf("waiting for %s to be gone (finalizers %v): %w", describe(live), live.GetFinalizers(), ctx.Err())
		}
	}
}

// deleteSupport deletes the item's Target, the Secret of its kubeconfig
// and its Context, at the same time; one that is not the item's (any
// more) is left alone.
func (d *Deployer) deleteSupport(ctx context.Context, item deployer.Item, n names) error {
	kinds := []struct {
		res  dynamic.ResourceInterface
		name string
	}{
		{d.client.Resource(Targets).Namespace(n.namespace), n.object},
		{d.client.Resource(secrets).Namespace(n.namespace), kubeconfigSecretName(n)},
		{d.client.Resource(Contexts).Namespace(n.namespace), n.object},
	}
	errs := make(chan error, len(kinds))
	for _, k := range kinds {
		go func() { errs <- deleteOwned(ctx, k.res, item, k.name) }()
	}
	var first error
	for range kinds {
		if err := <-errs; err != nil && first == nil {
			first = err
		}
	}
	return first
}

func deleteOwned(ctx context.Context, res dynamic.ResourceInterface, item deployer.Item, name string) error {
	live, err := get(ctx, res, name)
	if err != nil {
		return fmt.Errorf("reading %s: %w", name, err)
	}
	if ownershipOf(live, item) != owned {
		return nil
	}
	uid := live.GetUID()
	err = res.Delete(ctx, name, metav1.DeleteOptions{Preconditions: &metav1.Preconditions{UID: &uid}})
	if err != nil && !apierrors.IsNotFound(err) && !apierrors.IsConflict(err) {
		return fmt.Errorf("deleting %s: %w", describe(live), err)
	}
	return nil
}
