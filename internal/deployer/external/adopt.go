package external

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/failure"
)

// Migration from a running Landscaper (docs/guides/migrating-from-landscaper.md):
// an external deployer keeps what it deployed in its own state, which
// only it can read — often its DeployItem's status.providerStatus. So the
// adoption takes over the DeployItem Landscaper made, with its UID and
// status: nothing is written at the import and no job is started. The
// first apply after it writes the DeployItem in place (no move, which
// would uninstall): this provider's labels, its own Target and Context,
// and without Landscaper's execution labels and owner reference, so that
// Landscaper's removal of the installation (migration step 5) no longer
// finds the DeployItem and its garbage collection does not delete it.

var _ deployer.Adopter = (*Deployer)(nil)

// Landscaper's execution controller finds the DeployItems of an
// Execution by these labels and owns them by a controller reference.
const (
	labelExecManagedBy = "execution.landscaper.gardener.cloud/managed-by"
	labelExecName      = "execution.landscaper.gardener.cloud/name"
	executionKind      = "Execution"
)

// Adopt implements deployer.Adopter: the DeployItem Landscaper made for
// item (from, read through this deployer's cluster, which must be
// Landscaper's host cluster) becomes the item's, as it is. It reads one
// object and writes nothing. It fails, naming the DeployItem, when that
// object is not there, is another object now (UID), has another type,
// belongs to a deploy item of this provider, or has no finished,
// successful last job.
func (d *Deployer) Adopt(ctx context.Context, item deployer.Item, from deployer.Landscaped) (json.RawMessage, error) {
	if err := d.ready(item); err != nil {
		return nil, err
	}
	if from.DeployItem == "" || from.Namespace == "" || from.UID == "" {
		return nil, itemError(item, failure.Terminalf("AdoptIncomplete", "Landscaper's DeployItem is not named with its namespace and UID"))
	}
	ref := from.Namespace + "/" + from.DeployItem
	live, err := get(ctx, d.client.Resource(DeployItems).Namespace(from.Namespace), from.DeployItem)
	switch {
	case err != nil:
		return nil, itemError(item, fmt.Errorf("reading Landscaper's DeployItem %s: %w", ref, err))
	case live == nil:
		return nil, itemError(item, failure.Terminalf("AdoptNotFound",
			"Landscaper's DeployItem %s is not in the cluster of the external deployer of type %s: to take it over, "+
				"external_deployers must reach Landscaper's host cluster (the namespace setting does not matter for adopted items)", ref, item.Type))
	case string(live.GetUID()) != from.UID:
		return nil, itemError(item, failure.Terminalf("AdoptReplaced",
			"DeployItem %s has UID %s, but Landscaper's DeployItem read for the import had UID %s: import again", ref, live.GetUID(), from.UID))
	}
	if owner := live.GetLabels()[deployer.OwnerLabel]; owner != "" && owner != deployer.OwnerValue(item.ID) {
		return nil, itemError(item, failure.Terminalf("NotOwned", "%s carries label %s of another deploy item; it is left alone", describe(live), deployer.OwnerLabel))
	}
	if t := nestedString(live, "spec", "type"); t != item.Type {
		return nil, itemError(item, failure.Terminalf("AdoptTypeDiffers", "%s has type %q, the item %q", describe(live), t, item.Type))
	}
	if live.GetDeletionTimestamp() != nil {
		return nil, itemError(item, failure.Terminalf("AdoptDeleting", "%s is being deleted", describe(live)))
	}
	st := statusOf(live)
	if st.JobID != st.JobIDFinished || st.Phase != phaseSucceeded {
		return nil, itemError(item, failure.Terminalf("AdoptUnfinished",
			"%s is in phase %q with job %q (finished: %q): only a DeployItem whose last job succeeded is adopted; let Landscaper reconcile, then import again",
			describe(live), st.Phase, st.JobID, st.JobIDFinished))
	}
	status := &ProviderStatus{
		APIVersion: StatusAPIVersion, Kind: "ProviderStatus", Namespace: live.GetNamespace(), Name: live.GetName(), Adopted: true,
		Landscaper: &LandscaperObjects{Target: nestedString(live, "spec", "target", "name"), Context: nestedString(live, "spec", "context")},
	}
	status.observe(live)
	return status.encode(), nil
}

// landscapersUID is the UID of the DeployItem of Landscaper's that item
// adopted and this side has not written yet; "" for none. A status
// rebuilt from an inventory never names one: only the adoption's own
// status, kept in the state, may take over an object without the item's
// owner label.
func landscapersUID(item deployer.Item, prev *ProviderStatus) string {
	if prev == nil || prev.Landscaper == nil || !prev.Adopted || item.Rebuilt {
		return ""
	}
	return prev.UID
}

// takesOver reports whether live is the DeployItem of Landscaper's with
// UID uid that an adopted item takes over: that very object, without
// the owner label of any deploy item of this provider.
func takesOver(live *unstructured.Unstructured, uid string) bool {
	return live != nil && uid != "" && string(live.GetUID()) == uid &&
		live.GetKind() == "DeployItem" && live.GetLabels()[deployer.OwnerLabel] == ""
}

// untie removes from a DeployItem what makes it one of a Landscaper
// Execution's: the labels its execution controller lists it by and the
// Execution's owner reference (whose garbage collection would delete it).
// A DeployItem this side made never carries them.
func untie(obj *unstructured.Unstructured) {
	if obj.GetKind() != "DeployItem" {
		return
	}
	if labels := obj.GetLabels(); labels != nil {
		delete(labels, labelExecManagedBy)
		delete(labels, labelExecName)
		obj.SetLabels(labels)
	}
	refs := obj.GetOwnerReferences()
	kept := slices.DeleteFunc(slices.Clone(refs), func(r metav1.OwnerReference) bool { return r.Kind == executionKind })
	if len(kept) != len(refs) {
		obj.SetOwnerReferences(kept)
	}
}

// adoptedDrift is Drift of an item whose DeployItem is still
// Landscaper's (ProviderStatus.Landscaper): the DeployItem at n must be
// that very object, of the item's type and configuration, with its last
// job finished successfully. Its Target and Context are Landscaper's and
// not compared.
func (d *Deployer) adoptedDrift(ctx context.Context, item deployer.Item, n names, config map[string]any, uid string) (deployer.DriftReport, error) {
	live, err := get(ctx, d.client.Resource(DeployItems).Namespace(n.namespace), n.object)
	if err != nil {
		return deployer.DriftReport{}, itemError(item, fmt.Errorf("reading DeployItem %s/%s: %w", n.namespace, n.object, err))
	}
	drifted := func(format string, args ...any) (deployer.DriftReport, error) {
		return deployer.DriftReport{Drifted: true, Reason: fmt.Sprintf(format, args...)}, nil
	}
	switch {
	case live == nil:
		return drifted("DeployItem %s/%s no longer exists", n.namespace, n.object)
	case string(live.GetUID()) != uid:
		return drifted("%s was replaced: UID %s, adopted %s", describe(live), live.GetUID(), uid)
	case !takesOver(live, uid):
		return drifted("%s belongs to another deploy item now", describe(live))
	case nestedString(live, "spec", "type") != item.Type:
		return drifted("%s: spec.type was changed", describe(live))
	case !sameConfig(config, live):
		return drifted("%s: spec.config was changed", describe(live))
	}
	if reason := jobDrift(live); reason != "" {
		return drifted("%s", reason)
	}
	return deployer.DriftReport{}, nil
}

// sameConfig reports whether live's spec.config is config, compared as
// JSON decodes both (numbers of config equal the API server's).
func sameConfig(config map[string]any, live *unstructured.Unstructured) bool {
	have, _, _ := unstructured.NestedFieldNoCopy(live.Object, "spec", "config")
	return reflect.DeepEqual(normalized(map[string]any{"c": config})["c"], normalized(map[string]any{"c": have})["c"])
}

// nestedString is the string at path in obj; "" when there is none.
func nestedString(obj *unstructured.Unstructured, path ...string) string {
	s, _, _ := unstructured.NestedString(obj.Object, path...)
	return s
}
