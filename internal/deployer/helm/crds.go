package helm

import (
	"context"
	"errors"
	"fmt"
	"time"

	"helm.sh/helm/v3/pkg/chart"
	"helm.sh/helm/v3/pkg/release"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/parallel"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/target"
)

var crdResource = schema.GroupVersionResource{Group: "apiextensions.k8s.io", Version: "v1", Resource: "customresourcedefinitions"}

// freshInstall says whether deploy installs the release (rather than
// upgrading it) when last is its newest revision: only an install applies
// the chart's crds/.
func freshInstall(last *release.Release) bool {
	if last == nil {
		return true
	}
	switch last.Info.Status {
	case release.StatusUninstalled, release.StatusPendingInstall, release.StatusUninstalling:
		return true
	}
	return false
}

// chartCRDNames names the CustomResourceDefinitions in the crds/ of the
// chart and its subcharts, as the install would create them.
func chartCRDNames(ch *chart.Chart) ([]string, error) {
	var names []string
	files := ch.CRDObjects()
	parsed := make([][]*unstructured.Unstructured, len(files))
	errs := make([]error, len(files))
	parallel.Each(len(files), func(i int) { parsed[i], errs[i] = parseManifest(string(files[i].File.Data)) })
	for i, f := range files {
		if errs[i] != nil {
			return nil, fmt.Errorf("%s: %w", f.Filename, errs[i])
		}
		for _, o := range parsed[i] {
			if o.GetKind() == "CustomResourceDefinition" && o.GetName() != "" {
				names = append(names, o.GetName())
			}
		}
	}
	return names, nil
}

// absentCRDs returns those of names the cluster does not have yet.
func absentCRDs(ctx context.Context, c *target.Clients, names []string) ([]string, error) {
	var absent []string
	for _, n := range names {
		_, err := c.Metadata.Resource(crdResource).Get(ctx, n, metav1.GetOptions{})
		switch {
		case apierrors.IsNotFound(err):
			absent = append(absent, n)
		case err != nil:
			return nil, fmt.Errorf("reading CustomResourceDefinition %s: %w", n, err)
		}
	}
	return absent, nil
}

// removeCreatedCRDs deletes the CRDs a failed install created (created:
// the chart's CRDs that were absent before it) when the install left no
// release behind: Helm creates crds/ before it records the release, so a
// failure in between (a CRD the server rejects, a timeout) leaves CRDs no
// uninstall would ever remove. With a release recorded they stay: the
// next apply upgrades that release, and an upgrade does not apply crds/.
func removeCreatedCRDs(ctx context.Context, c *target.Clients, r *releaser, created []string) error {
	if len(created) == 0 {
		return nil
	}
	if last, err := r.last(); err != nil || !freshInstall(last) {
		return err
	}
	// The apply's own deadline may be what failed the install.
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
	defer cancel()
	var errs []error
	for _, n := range created {
		err := c.Metadata.Resource(crdResource).Delete(ctx, n, metav1.DeleteOptions{})
		if err != nil && !apierrors.IsNotFound(err) {
			errs = append(errs, fmt.Errorf("removing CustomResourceDefinition %s the failed install created: %w", n, err))
		}
	}
	return errors.Join(errs...)
}
