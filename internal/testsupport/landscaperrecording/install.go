package landscaperrecording

import (
	"context"
	"fmt"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/rest"
)

// Install replays rec (Replay) and, when the test ends, takes
// Landscaper's finalizers off the replayed objects so that their
// namespace can go.
func Install(t testing.TB, config *rest.Config, rec *Recording, opts ReplayOptions) *Replayed {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	r, err := Replay(ctx, config, rec, opts)
	if r != nil {
		t.Cleanup(func() {
			if err := r.RemoveFinalizers(context.Background()); err != nil {
				t.Errorf("landscaperrecording: %v", err)
			}
		})
	}
	if err != nil {
		t.Fatalf("landscaperrecording: %v", err)
	}
	return r
}

// RemoveFinalizers takes every finalizer off the replayed objects that
// still exist (what Landscaper does when it deletes them).
func (r *Replayed) RemoveFinalizers(ctx context.Context) error {
	patch := []byte(`{"metadata":{"finalizers":null}}`)
	for _, o := range r.Objects() {
		if len(o.GetFinalizers()) == 0 {
			continue
		}
		res, err := r.resource(o)
		if err != nil {
			return err
		}
		if _, err := res.Patch(ctx, o.GetName(), types.MergePatchType, patch, metav1.PatchOptions{}); err != nil && !apierrors.IsNotFound(err) {
			return fmt.Errorf("removing the finalizers of %s %s: %w", o.GetKind(), o.GetName(), err)
		}
	}
	return nil
}
