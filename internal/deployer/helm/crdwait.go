package helm

import (
	"context"
	"errors"
	"fmt"
	"time"

	"helm.sh/helm/v3/pkg/kube"
	apiextv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apiextv1beta1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1beta1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
)

// An install of a chart with CRDs (crds/) creates them, then waits until
// the API server serves them before it renders the templates, which may
// use them (Helm's installCRDs): with Helm's client that wait checks at
// once and then every 2 s, so CRDs established a moment after the check
// cost the install 2 s, more for every CRD file created after one. The
// client of this deployer's releases follows them as the manifest
// deployer follows its own CRDs (waitEstablished): it checks at once,
// again after 50 ms, then at intervals doubling up to 250 ms. What counts as established is Helm's check
// (kube.ReadyChecker): Established, or NamesAccepted false, which the
// install then fails on. Every other wait is Helm's own (an item's
// helmDeploymentConfig wait = true keeps Helm's readiness rules).

// CRD wait intervals, as the manifest deployer's first 30 s of polling.
const (
	crdWaitFirst = 50 * time.Millisecond
	crdWaitMax   = 250 * time.Millisecond
)

// crdWaitClient is Helm's client with Wait of a list of CRDs following
// them closely.
type crdWaitClient struct{ *kube.Client }

// withCRDWait returns c with Wait of CRDs as crdWaitClient has it; a
// client of another kind is returned as it is.
func withCRDWait(c kube.Interface) kube.Interface {
	if kc, ok := c.(*kube.Client); ok {
		return crdWaitClient{kc}
	}
	return c
}

// Wait waits for resources: CRDs alone closely, anything else as Helm does.
func (c crdWaitClient) Wait(resources kube.ResourceList, timeout time.Duration) error {
	if len(resources) == 0 || !allCRDs(resources) {
		return c.Client.Wait(resources, timeout)
	}
	cs, err := c.Factory.KubernetesClientSet()
	if err != nil {
		return err
	}
	log := c.Log
	if log == nil {
		log = func(string, ...any) {}
	}
	checker := kube.NewReadyChecker(cs, log, kube.PausedAsReady(true))
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	interval, pending := crdWaitFirst, resources
	var lastErr error
	for {
		rest := pending[:0:0]
		for _, r := range pending {
			ready, err := checker.IsReady(ctx, r)
			switch {
			case err != nil && !retryable(err):
				return err
			case err != nil:
				lastErr = err
				rest = append(rest, r)
			case !ready:
				rest = append(rest, r)
			}
		}
		if pending = rest; len(pending) == 0 {
			return nil
		}
		t := time.NewTimer(interval)
		select {
		case <-ctx.Done():
			t.Stop()
			if lastErr != nil {
				return fmt.Errorf("waiting for CRD %s to be established: %w (last error: %w)", pending[0].Name, ctx.Err(), lastErr)
			}
			return fmt.Errorf("waiting for CRD %s to be established: %w", pending[0].Name, ctx.Err())
		case <-t.C:
		}
		interval = min(interval*2, crdWaitMax)
	}
}

// allCRDs reports whether every resource is a CustomResourceDefinition.
func allCRDs(resources kube.ResourceList) bool {
	for _, r := range resources {
		switch kube.AsVersioned(r).(type) {
		case *apiextv1.CustomResourceDefinition, *apiextv1beta1.CustomResourceDefinition:
		default:
			return false
		}
	}
	return true
}

// retryable is what Helm's wait retries: the server's 5xx and 429.
func retryable(err error) bool {
	var status apierrors.APIStatus
	if !errors.As(err, &status) {
		return false
	}
	code := status.Status().Code
	return code >= 500 || code == 429
}
