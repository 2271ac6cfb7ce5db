package external

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
)

// itemStatus is the part of a DeployItem's status this side of the
// contract reads and writes (Landscaper's DeployItemStatus).
type itemStatus struct {
	Phase               string          `json:"phase,omitempty"`
	ObservedGeneration  int64           `json:"observedGeneration"`
	LastError           *lsError        `json:"lastError,omitempty"`
	LastReconcileTime   *time.Time      `json:"lastReconcileTime,omitempty"`
	Deployer            *deployerInfo   `json:"deployer,omitempty"`
	ProviderStatus      json.RawMessage `json:"providerStatus,omitempty"`
	ExportRef           *objectRef      `json:"exportRef,omitempty"`
	JobID               string          `json:"jobID,omitempty"`
	JobIDFinished       string          `json:"jobIDFinished,omitempty"`
	JobIDGenerationTime *time.Time      `json:"jobIDGenerationTime,omitempty"`
	TransitionTimes     *struct {
		InitTime *time.Time `json:"initTime,omitempty"`
	} `json:"transitionTimes,omitempty"`
}

// lsError is Landscaper's Error: what failed, why, and codes that say
// whether a retry can help.
type lsError struct {
	Operation string   `json:"operation"`
	Reason    string   `json:"reason"`
	Message   string   `json:"message"`
	Codes     []string `json:"codes,omitempty"`
}

func (e *lsError) String() string {
	s := e.describe()
	if len(e.Codes) > 0 {
		s += " [" + strings.Join(e.Codes, ", ") + "]"
	}
	return s
}

// describe is the error without its codes, which an error built from it
// carries apart (failure.Codes).
func (e *lsError) describe() string {
	s := e.Reason
	if e.Operation != "" {
		s = e.Operation + "/" + s
	}
	return s + ": " + e.Message
}

// deployerInfo identifies the deployer that last reconciled an item.
type deployerInfo struct {
	Identity string `json:"identity"`
	Name     string `json:"name"`
	Version  string `json:"version"`
}

type objectRef struct {
	Name      string `json:"name"`
	Namespace string `json:"namespace,omitempty"`
	UID       string `json:"uid,omitempty"`
}

// Landscaper's deploy item phases that end a job.
const (
	phaseSucceeded    = "Succeeded"
	phaseFailed       = "Failed"
	phaseDeleteFailed = "DeleteFailed"
)

// statusOf decodes obj's status; a status that does not decode reads as
// empty (nothing is known about the job then).
func statusOf(obj *unstructured.Unstructured) itemStatus {
	var st itemStatus
	if raw, ok := obj.Object["status"]; ok {
		if b, err := json.Marshal(raw); err == nil {
			_ = json.Unmarshal(b, &st)
		}
	}
	return st
}

// finished reports whether job has ended on obj: the deployer (or this
// side, at a timeout or abort) set jobIDFinished to it.
func (s itemStatus) finished(job string) bool { return s.JobIDFinished == job }

// pickedUp reports whether a deployer has started job, the one this side
// triggered last: it writes transitionTimes.initTime at the start of
// every job, and the trigger cleared it. (lastReconcileTime only counts
// when it is later than the trigger by a whole second, since both are
// stored with second precision.)
func (s itemStatus) pickedUp(job string) bool {
	if s.JobID != job {
		return false
	}
	if s.finished(job) || (s.TransitionTimes != nil && s.TransitionTimes.InitTime != nil) {
		return true
	}
	return s.LastReconcileTime != nil && s.JobIDGenerationTime != nil && s.LastReconcileTime.After(*s.JobIDGenerationTime)
}

// everReconciled reports whether any deployer ever worked on the item: it
// then may have deployed something, and only its uninstall removes it.
func (s itemStatus) everReconciled() bool {
	return s.LastReconcileTime != nil || (s.Deployer != nil && s.Deployer.Identity != "") || len(s.ProviderStatus) > 0
}

// StatusAPIVersion is the apiVersion of the provider status this deployer
// records for an item.
const StatusAPIVersion = "external.deployer.landscaper-terraform.io/v1alpha1"

// ProviderStatus is what an external item records: where its objects
// are, and what its deployer reported for the last job.
type ProviderStatus struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	// Namespace holds the DeployItem, Target and Context, all named Name.
	Namespace string `json:"namespace"`
	Name      string `json:"name"`
	// HasTarget: the item references a Target (it named one).
	HasTarget bool `json:"hasTarget,omitempty"`
	// KubeconfigSecret: the Target references a Secret of that name with
	// the provider block's kubeconfig of the item's target.
	KubeconfigSecret string `json:"kubeconfigSecret,omitempty"`
	// UID is the DeployItem's.
	UID   string `json:"uid,omitempty"`
	JobID string `json:"jobID,omitempty"`
	Phase string `json:"phase,omitempty"`
	// Deployer is the deployer that reconciled the item last.
	Deployer *deployerInfo `json:"deployer,omitempty"`
	// DeployerStatus is the DeployItem's status.providerStatus.
	DeployerStatus json.RawMessage `json:"deployerStatus,omitempty"`
	// ExportRef is the Secret the deployer wrote the exports into.
	ExportRef *objectRef `json:"exportRef,omitempty"`
	// Adopted: the DeployItem is the one Landscaper made, taken over by
	// a migration where it was (Namespace and Name are Landscaper's). It
	// stays there: moving it to the name this side derives from the item
	// ID would uninstall and deploy again.
	Adopted bool `json:"adopted,omitempty"`
	// Landscaper, set from the adoption until this side first writes the
	// DeployItem, names the Target and Context of Landscaper's that it
	// still references; they are Landscaper's and never written or
	// deleted here.
	Landscaper *LandscaperObjects `json:"landscaper,omitempty"`
}

// LandscaperObjects are the objects of Landscaper's an adopted
// DeployItem references (spec.target, spec.context).
type LandscaperObjects struct {
	Target  string `json:"target,omitempty"`
	Context string `json:"context,omitempty"`
}

func decodeStatus(raw json.RawMessage) (*ProviderStatus, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	var s ProviderStatus
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, fmt.Errorf("previous provider status cannot be read: %w", err)
	}
	if s.APIVersion != StatusAPIVersion {
		return nil, fmt.Errorf("previous provider status has apiVersion %q, want %q", s.APIVersion, StatusAPIVersion)
	}
	return &s, nil
}

func (s *ProviderStatus) encode() json.RawMessage {
	b, _ := json.Marshal(s)
	return b
}

// newStatus is the status of item, whose objects are at n.
func newStatus(n names, item deployer.Item) *ProviderStatus {
	s := &ProviderStatus{APIVersion: StatusAPIVersion, Kind: "ProviderStatus", Namespace: n.namespace, Name: n.object, HasTarget: item.Target != nil}
	if item.Target != nil && fromProvider(item.Target) {
		s.KubeconfigSecret = kubeconfigSecretName(n)
	}
	return s
}

// result is a Result with the status and the objects it names (for the
// installation's inventory, in the DeployItems' cluster).
func (s *ProviderStatus) result() deployer.Result {
	return deployer.Result{ProviderStatus: s.encode(), Objects: s.objects()}
}

// objects are the objects s names: the DeployItem, its Context, and its
// Target and kubeconfig Secret when it has them. (The export Secret is
// the deployer's, owned by the DeployItem.)
func (s *ProviderStatus) objects() []deployer.ObjectRef {
	ref := func(apiVersion, kind, name string) deployer.ObjectRef {
		return deployer.ObjectRef{APIVersion: apiVersion, Kind: kind, Namespace: s.Namespace, Name: name}
	}
	if s.Landscaper != nil { // the Target and Context are still Landscaper's
		return []deployer.ObjectRef{ref(apiVersion, "DeployItem", s.Name)}
	}
	objs := []deployer.ObjectRef{ref(apiVersion, "DeployItem", s.Name), ref(apiVersion, "Context", s.Name)}
	if s.HasTarget {
		objs = append(objs, ref(apiVersion, "Target", s.Name))
	}
	if s.KubeconfigSecret != "" {
		objs = append(objs, ref("v1", "Secret", s.KubeconfigSecret))
	}
	return objs
}

// observe records what obj's status says about its last job.
func (s *ProviderStatus) observe(obj *unstructured.Unstructured) {
	st := statusOf(obj)
	s.UID, s.JobID, s.Phase, s.Deployer, s.ExportRef = string(obj.GetUID()), st.JobID, st.Phase, st.Deployer, st.ExportRef
	if len(st.ProviderStatus) > 0 {
		s.DeployerStatus = st.ProviderStatus
	}
}
