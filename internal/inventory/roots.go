package inventory

import (
	"context"
	"fmt"
	"sort"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/target"
)

// Roots lists the root installations whose parents the clusters of
// targets hold (each distinct cluster once), sorted: what `terraform
// query` finds after a lost state. labelSelector (may be "") selects among
// the parent Secrets. A Secret that is not a parent as this package writes
// it is passed over; Find verifies each parent's record when it is read.
func Roots(ctx context.Context, pool *target.Pool, targets []api.Target, labelSelector string) ([]string, error) {
	if pool == nil {
		return nil, nil
	}
	seen := map[*target.Clients]bool{}
	roots := map[string]bool{}
	for i := range targets {
		c, err := pool.Clients(&targets[i])
		if err != nil || seen[c] {
			continue // not a cluster this provider can reach
		}
		seen[c] = true
		list, err := c.Dynamic.Resource(secrets).Namespace(c.Namespace).List(ctx, metav1.ListOptions{
			FieldSelector: "type=" + string(secretType), LabelSelector: labelSelector})
		if err != nil {
			return nil, fmt.Errorf("listing installation inventories in namespace %s of target %s: %w", c.Namespace, targets[i].Metadata.Name, err)
		}
		for _, u := range list.Items {
			var s corev1.Secret
			if runtime.DefaultUnstructuredConverter.FromUnstructured(u.Object, &s) != nil {
				continue
			}
			root := s.Annotations[InstallationAnnotation]
			if root != "" && s.Name == ParentName(root) && foreignSecret(&s, root) == "" {
				roots[root] = true
			}
		}
	}
	out := make([]string, 0, len(roots))
	for root := range roots {
		out = append(out, root)
	}
	sort.Strings(out)
	return out, nil
}
