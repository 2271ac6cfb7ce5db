package external

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/failure"
)

// Drift implements deployer.Deployer as far as this side can see: what
// the deployer did in its target is its own business and not checked
// (Landscaper's contract has no drift check). Drifted are a DeployItem,
// Target or Context that is gone or was changed by someone else, and a
// DeployItem whose last job did not succeed (someone started another).
// One read per object.
func (d *Deployer) Drift(ctx context.Context, item deployer.Item) (deployer.DriftReport, error) {
	if err := d.ready(item); err != nil {
		return deployer.DriftReport{}, err
	}
	prev, err := decodeStatus(item.ProviderStatus)
	if err != nil {
		return deployer.DriftReport{}, itemError(item, failure.NewTerminal("InvalidProviderStatus", err))
	}
	config, err := parseConfig(item.Config)
	if err != nil {
		return deployer.DriftReport{}, itemError(item, err)
	}
	n, err := d.where(ctx, item, prev)
	if err != nil {
		return deployer.DriftReport{}, itemError(item, err)
	}
	if uid := landscapersUID(item, prev); uid != "" {
		return d.adoptedDrift(ctx, item, n, config, uid)
	}
	want := deployItemObject(item, n, config, time.Time{})
	live, err := get(ctx, d.client.Resource(DeployItems).Namespace(n.namespace), n.object)
	if err != nil {
		return deployer.DriftReport{}, itemError(item, fmt.Errorf("reading DeployItem %s/%s: %w", n.namespace, n.object, err))
	}
	if reason := itemDrift(item, want, live); reason != "" {
		return deployer.DriftReport{Drifted: true, Reason: reason}, nil
	}
	if item.Target != nil {
		want, err := targetObject(item, n)
		if err != nil {
			return deployer.DriftReport{}, itemError(item, err)
		}
		live, err := get(ctx, d.client.Resource(Targets).Namespace(n.namespace), n.object)
		if err != nil {
			return deployer.DriftReport{}, itemError(item, fmt.Errorf("reading Target %s/%s: %w", n.namespace, n.object, err))
		}
		if reason := supportDrift(item, want, live, "spec"); reason != "" {
			return deployer.DriftReport{Drifted: true, Reason: reason}, nil
		}
		if fromProvider(item.Target) {
			if reason, err := d.kubeconfigDrift(ctx, item, n); err != nil || reason != "" {
				return deployer.DriftReport{Drifted: reason != "", Reason: reason}, itemError(item, err)
			}
		}
	}
	live, err = get(ctx, d.client.Resource(Contexts).Namespace(n.namespace), n.object)
	if err != nil {
		return deployer.DriftReport{}, itemError(item, fmt.Errorf("reading Context %s/%s: %w", n.namespace, n.object, err))
	}
	if live == nil {
		return deployer.DriftReport{Drifted: true, Reason: fmt.Sprintf("Context %s/%s no longer exists", n.namespace, n.object)}, nil
	}
	return deployer.DriftReport{}, nil
}

// itemDrift says how the live DeployItem differs from want; "" if not.
// Reasons name fields, never their values (a config may hold secrets).
func itemDrift(item deployer.Item, want, live *unstructured.Unstructured) string {
	if reason := supportDrift(item, want, live, "spec"); reason != "" {
		return reason
	}
	return jobDrift(live)
}

// jobDrift says why the live DeployItem's last job is not the finished,
// successful one this side left; "" if it is.
func jobDrift(live *unstructured.Unstructured) string {
	st := statusOf(live)
	switch {
	case live.GetDeletionTimestamp() != nil:
		return describe(live) + " is being deleted"
	case st.JobID != st.JobIDFinished:
		return fmt.Sprintf("%s runs a job (%s) this provider did not start", describe(live), st.JobID)
	case st.Phase != phaseSucceeded:
		reason := fmt.Sprintf("%s is in phase %s", describe(live), st.Phase)
		if st.LastError != nil {
			reason += ": " + st.LastError.String()
		}
		return reason
	}
	return ""
}

// supportDrift compares the fields of want under field with live's.
func supportDrift(item deployer.Item, want, live *unstructured.Unstructured, field string) string {
	if live == nil {
		return describe(want) + " no longer exists"
	}
	if ownershipOf(live, item) == foreign {
		return describe(live) + " belongs to another deploy item now"
	}
	wantSpec, liveSpec := normalized(want.Object[field]), normalized(live.Object[field])
	for k, v := range wantSpec {
		if !reflect.DeepEqual(v, liveSpec[k]) {
			return fmt.Sprintf("%s: %s.%s was changed", describe(live), field, k)
		}
	}
	return ""
}

// normalized returns v's fields as JSON decodes them, so numbers of the
// desired object compare equal to the API server's.
func normalized(v any) map[string]any {
	b, err := json.Marshal(v)
	if err != nil {
		return nil
	}
	var out map[string]any
	_ = json.Unmarshal(b, &out)
	return out
}

// kubeconfigDrift says how the Secret with the provider block's
// kubeconfig of item's target differs from what it should hold; it never
// quotes the kubeconfig.
func (d *Deployer) kubeconfigDrift(ctx context.Context, item deployer.Item, n names) (string, error) {
	kubeconfig, err := d.providerKubeconfig(item.Target)
	if err != nil {
		return "", err
	}
	want := kubeconfigSecretObject(item, n, kubeconfig)
	live, err := get(ctx, d.client.Resource(secrets).Namespace(n.namespace), want.GetName())
	if err != nil {
		return "", fmt.Errorf("reading Secret %s/%s: %w", n.namespace, want.GetName(), err)
	}
	if reason := supportDrift(item, want, live, "data"); reason != "" {
		return strings.Replace(reason, "data."+KubeconfigKey+" was changed", "the kubeconfig of the provider block differs", 1), nil
	}
	return "", nil
}
