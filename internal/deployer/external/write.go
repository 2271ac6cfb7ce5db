package external

import (
	"context"
	"fmt"
	"slices"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/util/retry"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/failure"
)

// get reads an object; nil without error when it does not exist.
func get(ctx context.Context, res dynamic.ResourceInterface, name string) (*unstructured.Unstructured, error) {
	live, err := res.Get(ctx, name, metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		return nil, nil
	}
	return live, err
}

// claim reads what a write of obj would replace (nil: nothing) and
// refuses an object of another deploy item. takeOver is the UID of a
// DeployItem of Landscaper's the item adopted ("" for none), which this
// write makes the item's (takesOver).
func claim(ctx context.Context, res dynamic.ResourceInterface, item deployer.Item, obj *unstructured.Unstructured, takeOver string) (*unstructured.Unstructured, error) {
	live, err := get(ctx, res, obj.GetName())
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", describe(obj), err)
	}
	if ownershipOf(live, item) == foreign && !takesOver(live, takeOver) {
		return nil, failure.Terminalf("NotOwned", "%s exists and does not belong to deploy item %q (label %s differs); it is left alone",
			describe(obj), item.ID, deployer.OwnerLabel)
	}
	return live, nil
}

// put makes obj's content that of the object in the cluster: it creates
// it, or replaces everything but the metadata and status of live (what
// claim read) — as Landscaper writes a DeployItem from its template, so
// a field someone else added to the spec does not survive — and adds
// obj's labels, annotations and finalizers to live's. A conflict reads the
// object again.
func put(ctx context.Context, res dynamic.ResourceInterface, item deployer.Item, obj, live *unstructured.Unstructured, takeOver string) (*unstructured.Unstructured, error) {
	var out *unstructured.Unstructured
	var claimErr error
	tried := false
	retriable := func(err error) bool { return apierrors.IsConflict(err) || apierrors.IsAlreadyExists(err) }
	err := retry.OnError(retry.DefaultRetry, retriable, func() error {
		if tried {
			if live, claimErr = claim(ctx, res, item, obj, takeOver); claimErr != nil {
				return claimErr // neither a conflict nor AlreadyExists: ends the retries
			}
		}
		tried = true
		var err error
		if live == nil {
			out, err = res.Create(ctx, obj, metav1.CreateOptions{FieldManager: fieldManager})
		} else {
			out, err = res.Update(ctx, replaced(live, obj), metav1.UpdateOptions{FieldManager: fieldManager})
		}
		return err
	})
	switch {
	case claimErr != nil:
		return nil, claimErr
	case err != nil:
		return nil, fmt.Errorf("writing %s: %w", describe(obj), classifyWrite(err))
	}
	return out, nil
}

// replaced is live with want's content and metadata added.
func replaced(live, want *unstructured.Unstructured) *unstructured.Unstructured {
	out := live.DeepCopy()
	for k := range out.Object {
		if k != "metadata" && k != "status" {
			delete(out.Object, k)
		}
	}
	for k, v := range want.Object {
		if k != "metadata" {
			out.Object[k] = v
		}
	}
	labels, annotations := out.GetLabels(), out.GetAnnotations()
	if labels == nil {
		labels = map[string]string{}
	}
	if annotations == nil {
		annotations = map[string]string{}
	}
	for k, v := range want.GetLabels() {
		labels[k] = v
	}
	for k, v := range want.GetAnnotations() {
		annotations[k] = v
	}
	out.SetLabels(labels)
	out.SetAnnotations(annotations)
	finalizers := out.GetFinalizers()
	for _, f := range want.GetFinalizers() {
		if !slices.Contains(finalizers, f) {
			finalizers = append(finalizers, f)
		}
	}
	out.SetFinalizers(finalizers)
	untie(out)
	return out
}

// classifyWrite makes a write the API server refused as invalid terminal;
// everything else (unreachable, conflict, missing CRD just now) may heal.
func classifyWrite(err error) error {
	if apierrors.IsInvalid(err) || apierrors.IsBadRequest(err) {
		return failure.NewTerminal("Invalid", err)
	}
	return err
}
