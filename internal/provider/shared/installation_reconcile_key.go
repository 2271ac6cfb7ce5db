package shared

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"

	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// The installation's reconcile key signs the inventory records its jobs
// write (inventory/sign.go), so the landscaper_reconcile action, which
// applies what the records say with the targets' credentials, applies
// only what the installation recorded. An action gets no resource state,
// only its configuration, so the key reaches it through the sensitive
// attribute reconcile_key. It is derived from the installation's
// config_hash key (private state, config_hash.go) with its own purpose
// label: one random secret per installation, never written to a cluster,
// and the attribute reveals nothing of the config_hash key (HMAC is one
// way), so config_hash keeps its protection. Installations get it with
// their first job: at create, and at the first update of one created
// before keys existed or imported (which has a config_hash key only
// after that update, or another workspace's records).

// reconcileKeyLabel is the HMAC message that derives the reconcile key.
const reconcileKeyLabel = "landscaper-terraform/reconcile-key/v1"

// ReconcileKey is the installation's reconcile key; nil without a
// config_hash key.
func (k ConfigHashKey) ReconcileKey() []byte {
	if k == nil {
		return nil
	}
	mac := hmac.New(sha256.New, k)
	_, _ = mac.Write([]byte(reconcileKeyLabel)) // never fails
	return mac.Sum(nil)
}

// ReconcileKeyValue is reconcile_key's value for k: hex; unknown
// without a key (a create's plan).
func (k ConfigHashKey) ReconcileKeyValue() types.String {
	if k == nil {
		return types.StringUnknown()
	}
	return types.StringValue(hex.EncodeToString(k.ReconcileKey()))
}

// BackfillReconcileKey sets reconcile_key of a state that has none yet
// but whose private state holds the key k (created before the
// attribute); it reports whether it changed m.
func BackfillReconcileKey(k ConfigHashKey, m *InstallationModel) bool {
	if k == nil {
		return false
	}
	v := k.ReconcileKeyValue()
	if m.ReconcileKey.Equal(v) {
		return false
	}
	m.ReconcileKey = v
	return true
}

// reconcileKeyAttribute is reconcile_key's schema.
func reconcileKeyAttribute() schema.Attribute {
	return schema.StringAttribute{Computed: true, Sensitive: true,
		MarkdownDescription: "The key (hex) the installation signs its inventory records with (HMAC-SHA256), for the " +
			"`landscaper_reconcile` action's `reconcile_key`: the action applies only records signed with it, so whoever " +
			"may write Secrets in a target cluster cannot make it apply anything else. Random per installation, derived " +
			"from a key in private state, never written to a cluster; sensitive, and in the state like the target " +
			"kubeconfigs. Records are signed by the installation's jobs: one imported, or created by a provider build that " +
			"did not sign records, has them signed by its next update; until then the action refuses them."}
}
