package external

import (
	"context"
	"encoding/base64"
	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/yaml"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/failure"
)

// ReasonDeployerFailed is the reason of a job the deployer ended as
// failed without naming one.
const ReasonDeployerFailed = "DeployerFailed"

// result turns a finished job into what a built-in deployer returns:
// Succeeded gives the exports from the export Secret, Failed the
// deployer's lastError, classified by its codes.
func (d *Deployer) result(ctx context.Context, obj *unstructured.Unstructured) (map[string]any, error) {
	st := statusOf(obj)
	if st.Phase != phaseSucceeded {
		return nil, jobError(obj, st)
	}
	if st.ExportRef == nil || st.ExportRef.Name == "" {
		return nil, nil
	}
	return d.readExports(ctx, obj, *st.ExportRef)
}

// jobError is the error of a job that ended in another phase than
// Succeeded.
func jobError(obj *unstructured.Unstructured, st itemStatus) error {
	who := "the deployer"
	if st.Deployer != nil && st.Deployer.Name != "" {
		who = fmt.Sprintf("the deployer %q", st.Deployer.Name)
	}
	if st.LastError == nil {
		return failure.NewTransient(ReasonDeployerFailed, fmt.Errorf("%s: %s ended the job in phase %q without an error", describe(obj), who, st.Phase))
	}
	reason := st.LastError.Reason
	if reason == "" {
		reason = ReasonDeployerFailed
	}
	return failure.FromLandscaperCodes(reason, st.LastError.Codes,
		fmt.Errorf("%s: %s ended the job in phase %q: %s", describe(obj), who, st.Phase, st.LastError.describe()))
}

// readExports reads the exports the deployer wrote into the Secret ref:
// a YAML or JSON object under ExportKey, as Landscaper reads them.
//
// The DeployItem's status is written by whoever may write DeployItems, and
// the provider reads the Secret with its own credentials, so the reference
// is a claim: it is followed only into the DeployItem's own namespace, and
// the Secret is used only when the DeployItem owns it (an owner reference
// to its UID, as Landscaper's deployer library writes it). Anything else
// would let a status copy any Secret of the cluster into the exports.
func (d *Deployer) readExports(ctx context.Context, obj *unstructured.Unstructured, ref objectRef) (map[string]any, error) {
	ns := obj.GetNamespace()
	if ref.Namespace != "" && ref.Namespace != ns {
		return nil, failure.Terminalf("ForeignExports", "%s: status.exportRef names a Secret in namespace %q; exports are read only from the DeployItem's own namespace %q", describe(obj), ref.Namespace, ns)
	}
	secret, err := d.client.Resource(secrets).Namespace(ns).Get(ctx, ref.Name, metav1.GetOptions{})
	if err != nil {
		return nil, fmt.Errorf("reading the exports of %s from Secret %s/%s: %w", describe(obj), ns, ref.Name, err)
	}
	if !ownedBy(secret, obj) {
		return nil, failure.Terminalf("ForeignExports", "%s: the export Secret %s/%s has no owner reference to the DeployItem (uid %s); exports are read only from a Secret the DeployItem owns", describe(obj), ns, ref.Name, obj.GetUID())
	}
	encoded, _, _ := unstructured.NestedString(secret.Object, "data", ExportKey)
	raw, err := base64.StdEncoding.DecodeString(encoded)
	if err != nil {
		return nil, failure.Terminalf("InvalidExports", "Secret %s/%s: data.%s is not base64", ns, ref.Name, ExportKey)
	}
	var exports map[string]any
	if err := yaml.Unmarshal(raw, &exports); err != nil {
		return nil, failure.Terminalf("InvalidExports", "Secret %s/%s: data.%s is not an object: %v", ns, ref.Name, ExportKey, err)
	}
	return exports, nil
}

// ownedBy says whether owner (a DeployItem) is among obj's owners, by UID:
// names can be reused, a UID cannot.
func ownedBy(obj, owner *unstructured.Unstructured) bool {
	if owner.GetUID() == "" {
		return false
	}
	for _, ref := range obj.GetOwnerReferences() {
		if ref.UID == owner.GetUID() && ref.Kind == owner.GetKind() {
			return true
		}
	}
	return false
}
