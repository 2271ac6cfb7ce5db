package inventory

import (
	"encoding/json"
	"fmt"
	"sort"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine/snapshot"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/target"
)

// After a lost state, Load finds the parents in the clusters of the
// configuration's target imports only. An item whose target comes from
// elsewhere (a subinstallation's export, a mapping) is found when the job
// first reaches its cluster: the recorder reads the parent there anyway
// before deploying. AdoptRecorded makes the job use what it finds:
// an item the job re-applies starts from its recorded provider status (so
// the deployer prunes what the item no longer renders), and Settle
// returns what the job did not re-apply, for a delete job.

// AdoptRecorded tells the recorder that its job starts from a lost state.
func (r *Recorder) AdoptRecorded() { r.adopt = true }

// startFromRecord sets the provider status item's Apply starts from: its
// own, or after a lost state, when it has none, what the parent of its
// cluster records for the same item of the same type (claimed: rebuilt).
func (r *Recorder) startFromRecord(p *parent, item *deployer.Item) {
	if !r.adopt || len(item.ProviderStatus) > 0 {
		return
	}
	p.mu.Lock()
	e, ok := p.items[item.ID]
	p.mu.Unlock()
	if rec, err := e.item(); ok && err == nil && rec.Type == item.Type {
		claimCall(item, rec.ProviderStatus)
	}
}

// item decodes the recorded item back.
func (e entry) item() (Item, error) {
	var it Item
	err := json.Unmarshal(e.raw, &it)
	return it, err
}

// Settle compares, after a job that started from a lost state, what the
// parents this job opened record with what s holds. A recorded item that
// s holds in that cluster is settled. One that s holds but the job never
// applied (it failed or was interrupted first) takes the recorded
// provider status and cluster in s, so the next job starts from them.
// Everything else (items the blueprint no longer renders, or now sends
// to another cluster) is returned as a snapshot like Load's, every item
// Failed and targeting the cluster it was found in, for a delete job or
// Merge; nil when nothing is left over.
func (r *Recorder) Settle(s *snapshot.Snapshot) *snapshot.Snapshot {
	if !r.adopt || r.pool == nil || s.Empty() {
		return nil
	}
	items := map[string]*snapshot.DeployItem{}
	for _, in := range s.Installations() {
		if in.Execution != nil {
			for _, it := range in.Execution.DeployItems {
				items[it.ID] = it
			}
		}
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	nodes := map[string]*snapshot.Installation{}
	i := 0
	for clients, p := range r.clusters {
		p.mu.Lock()
		if p.foreign {
			p.mu.Unlock()
			continue
		}
		t := r.targets[clients]
		importName := fmt.Sprintf("leftover-%d", i)
		i++
		for _, e := range p.items {
			rec, err := e.item()
			if err != nil {
				continue // written by this process from a valid Item: cannot happen
			}
			it := items[rec.ID]
			switch {
			case rec.Homed && it != nil && it.Type == rec.Type:
				// Its deployer keeps it in this home whatever its target.
				if len(it.ProviderStatus) == 0 {
					Claim(it, rec.ProviderStatus, it.Config)
				}
			case rec.Homed:
				addRebuilt(nodes, r.root, importName, t, rec)
			case it != nil && it.AppliedTarget == nil && it.Type == rec.Type:
				applied := t
				it.AppliedTarget = &applied
				Claim(it, rec.ProviderStatus, it.Config)
			case it != nil && it.AppliedTarget != nil && r.sameCluster(it.AppliedTarget, clients):
			default:
				addRebuilt(nodes, r.root, importName, t, rec)
			}
		}
		p.mu.Unlock()
	}
	return rebuiltSnapshot(nodes, r.root)
}

// sameCluster reports whether t reaches the cluster of clients.
func (r *Recorder) sameCluster(t *api.Target, clients *target.Clients) bool {
	c, err := r.pool.Clients(t)
	return err == nil && c == clients
}

// Merge adds to s the items of from (what Settle left over and a delete
// job did not delete), under their installations, so that the state
// records them and the next job deletes them. An item whose ID s already
// holds (deployed elsewhere now) is not added twice: the parent of its
// old cluster still records it.
func Merge(s, from *snapshot.Snapshot) {
	if from.Empty() || s.Empty() {
		return
	}
	nodes := map[string]*snapshot.Installation{}
	for _, in := range s.Installations() {
		nodes[in.Path] = in
	}
	for _, in := range from.Installations() {
		if in.Execution == nil {
			continue
		}
		into := node(nodes, s.Root.Path, in.Path)
		if into.Execution == nil {
			into.Execution = &snapshot.Execution{Phase: api.ExecutionPhaseFailed}
		}
		for name, t := range in.Targets.Single {
			if into.Targets.Single == nil {
				into.Targets.Single = map[string]api.Target{}
			}
			into.Targets.Single[name] = t
		}
		held := map[string]bool{}
		for _, it := range into.Execution.DeployItems {
			held[it.ID] = true
		}
		for _, it := range in.Execution.DeployItems {
			if !held[it.ID] {
				into.Execution.DeployItems = append(into.Execution.DeployItems, it)
			}
		}
		sort.Slice(into.Execution.DeployItems, func(i, j int) bool { return into.Execution.DeployItems[i].ID < into.Execution.DeployItems[j].ID })
	}
}
