package manifest

import (
	"context"
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
)

// Drift reads every managed object once and reports the first one that is
// missing, owned by someone else, or differs from its manifest. Objects
// the manifest no longer lists are a configuration change, not drift, and
// are left to Apply.
func (s *Session) Drift(ctx context.Context, objs []*Desired, managed []ManagedResource) (deployer.DriftReport, error) {
	mappings, err := s.resolve(objs)
	if err != nil {
		return deployer.DriftReport{}, err
	}
	byKey := map[key]*Desired{}
	for _, d := range objs {
		byKey[keyOf(d.Ref())] = d
	}
	for _, r := range managed {
		d, ok := byKey[keyOf(r.Resource)]
		if !ok || r.Policy == PolicyIgnore {
			continue
		}
		live, err := s.client(mappings[d], r.Resource.Namespace).Get(ctx, r.Resource.Name, metav1.GetOptions{})
		if apierrors.IsNotFound(err) {
			return drifted("%s no longer exists", r.Resource), nil
		}
		if err != nil {
			return deployer.DriftReport{}, fmt.Errorf("%s: %w", r.Resource, err)
		}
		if owner := live.GetLabels()[OwnerLabel]; owner != s.owner {
			return drifted("%s is no longer labeled as owned by this deploy item", r.Resource), nil
		}
		if r.Policy == PolicyImmutable {
			continue
		}
		if path := firstDifference("", expected(d), live.Object); path != "" {
			// Only the path: the values may be secret.
			return drifted("%s differs from its manifest at %s", r.Resource, path), nil
		}
	}
	return deployer.DriftReport{}, nil
}

func drifted(format string, args ...any) deployer.DriftReport {
	return deployer.DriftReport{Drifted: true, Reason: fmt.Sprintf(format, args...)}
}

// Compare reads each object once and returns why the first one that is
// missing or differs from its manifest does so, or "" if all match. Unlike
// Drift it ignores ownership labels: Helm releases own their objects.
func (s *Session) Compare(ctx context.Context, objs []*Desired) (string, error) {
	mappings, err := s.resolve(objs)
	if err != nil {
		return "", err
	}
	for _, d := range objs {
		ref := d.Ref()
		live, err := s.client(mappings[d], ref.Namespace).Get(ctx, ref.Name, metav1.GetOptions{})
		if apierrors.IsNotFound(err) {
			return fmt.Sprintf("%s no longer exists", ref), nil
		}
		if err != nil {
			return "", fmt.Errorf("%s: %w", ref, err)
		}
		if path := firstDifference("", d.Object.Object, live.Object); path != "" {
			return fmt.Sprintf("%s differs from the release manifest at %s", ref, path), nil
		}
	}
	return "", nil
}
