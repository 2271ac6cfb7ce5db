package inventory

import (
	"context"
	"encoding/json"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/target"
)

// A landscaper_reconcile job runs outside the resource, which therefore
// learns its outcome from the parents at its next refresh (ReadReconciled):
// the job records it with the items (Recorder.Reconciled), signed like
// them, and the resource's next job of its own drops it.

// Reconciled is the outcome of a reconcile job, as Landscaper's
// Installation status reports a job: phase, job ID and, when it failed,
// the deploy items that failed with their errors.
type Reconciled struct {
	JobID string `json:"jobID"`
	// Phase is the root installation's phase after the job:
	// Succeeded or Failed.
	Phase api.InstallationPhase `json:"phase"`
	// Message is the root installation's last error; "" when it succeeded.
	Message string `json:"message,omitempty"`
	// Errors are the failed deploy items by ID, each with its last error.
	Errors map[string]string `json:"errors,omitempty"`
}

// SignWith makes the job sign every record it writes with key; with
// verify it also refuses, when it first reads a parent, a record that is
// not signed with key (ErrUnsigned, ErrBadSignature): the job then
// fails before it deploys anything to that cluster. Call it before the
// job starts.
func (r *Recorder) SignWith(key []byte, verify bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.key, r.verify = key, verify && key != nil
}

// SealWhen makes the job seal every deploy item configuration holds
// reports to hold a secret (seal.go) with a key derived from the key of
// SignWith, and withhold it without one. Configurations read sealed stay
// sealed whatever holds says. Call it before the job starts.
func (r *Recorder) SealWhen(holds func(json.RawMessage) bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.holds = holds
}

// Reconciled records o in every parent the job opened and did not leave
// to a newer instance; Close writes it. Call it after the job, before Close.
func (r *Recorder) Reconciled(o Reconciled) {
	for _, p := range r.openedParents() {
		p.mu.Lock()
		if !p.foreign {
			p.reconciled, p.keep = &o, true
		}
		p.mu.Unlock()
	}
}

// openedParents are the parents the job has read.
func (r *Recorder) openedParents() []*parent {
	r.mu.Lock()
	all := make([]*parent, 0, len(r.clusters))
	for _, p := range r.clusters {
		all = append(all, p)
	}
	r.mu.Unlock()
	opened := all[:0]
	for _, p := range all {
		p.openOnce.Lock()
		if p.opened {
			opened = append(opened, p)
		}
		p.openOnce.Unlock()
	}
	return opened
}

// ReadReconciled returns the newest reconcile outcome (by job ID, which
// sorts by time) that the parents of root installation root in the
// clusters of targets record and have signed with key; nil when there is
// none. Parents that are not the installation's, or whose signature does
// not verify, are passed over: an outcome counts only when the
// installation's own reconcile job wrote it.
func ReadReconciled(ctx context.Context, pool *target.Pool, root string, targets []api.Target, key []byte) (*Reconciled, error) {
	if pool == nil || key == nil {
		return nil, nil
	}
	var newest *Reconciled
	seen := map[*target.Clients]bool{}
	for i := range targets {
		clients, err := pool.Clients(&targets[i])
		if err != nil || seen[clients] {
			continue // not a cluster this provider can reach, as for Rebuild
		}
		seen[clients] = true
		name := ParentName(root)
		f, err := fetch(ctx, clients.Dynamic.Resource(secrets).Namespace(clients.Namespace), clients.Namespace, name, root)
		if err != nil {
			return nil, err
		}
		if !f.exists || f.ignored != "" || f.rec.Reconciled == nil {
			continue
		}
		cluster, err := clusterIdentity(ctx, clients.Dynamic)
		if err != nil {
			return nil, err
		}
		if f.verify(key, cluster, clients.Namespace, name) != nil {
			continue
		}
		if o := f.rec.Reconciled; newest == nil || o.JobID > newest.JobID {
			newest = o
		}
	}
	return newest, nil
}
