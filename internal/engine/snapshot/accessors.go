package snapshot

import (
	"sort"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
)

// Empty reports whether nothing exists any more.
func (s *Snapshot) Empty() bool { return s == nil || s.Root == nil }

// RootPhase is the phase of the root installation ("" when empty).
func (s *Snapshot) RootPhase() api.InstallationPhase {
	if s.Empty() {
		return ""
	}
	return s.Root.Phase
}

// JobID and JobIDFinished are the root's; the job is finished when equal.
func (s *Snapshot) JobID() string {
	if s.Empty() {
		return ""
	}
	return s.Root.JobID
}

// JobIDFinished is the ID of the root's last finished job.
func (s *Snapshot) JobIDFinished() string {
	if s.Empty() {
		return ""
	}
	return s.Root.JobIDFinished
}

// Exports are the root installation's data exports.
func (s *Snapshot) Exports() map[string]any {
	if s.Empty() {
		return nil
	}
	return s.Root.Exports
}

// TargetExports are the root installation's target exports.
func (s *Snapshot) TargetExports() map[string]api.Target {
	if s.Empty() {
		return nil
	}
	return s.Root.TargetExports
}

// Installations lists the tree depth-first, parents before children.
func (s *Snapshot) Installations() []*Installation {
	if s.Empty() {
		return nil
	}
	var out []*Installation
	var walk func(*Installation)
	walk = func(in *Installation) {
		out = append(out, in)
		for _, sub := range in.Subinstallations {
			walk(sub)
		}
	}
	walk(s.Root)
	return out
}

// DeployItems lists every deploy item of the tree, sorted by ID.
func (s *Snapshot) DeployItems() []*DeployItem {
	var out []*DeployItem
	for _, in := range s.Installations() {
		if in.Execution != nil {
			out = append(out, in.Execution.DeployItems...)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// Finished reports whether an object with these job IDs finished its job.
func Finished(jobID, jobIDFinished string) bool { return jobID == jobIDFinished }

// MarkDrifted records that the deploy items with these IDs no longer match
// what they applied (refresh found drift): their applied config hash is
// forgotten, so the next job applies them again even when they are
// updateOnChangeOnly and their configuration is unchanged. It reports
// whether any item was marked.
func (s *Snapshot) MarkDrifted(ids []string) bool {
	drifted := make(map[string]bool, len(ids))
	for _, id := range ids {
		drifted[id] = true
	}
	marked := false
	for _, it := range s.DeployItems() {
		if drifted[it.ID] && it.AppliedConfigHash != "" {
			it.AppliedConfigHash, marked = "", true
		}
	}
	return marked
}
