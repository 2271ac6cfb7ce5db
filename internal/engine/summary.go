package engine

import (
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine/snapshot"
)

// Summary is seed 004's strict Progressing condition for a snapshot.
type Summary struct {
	Phase api.InstallationPhase
	// Progressing is true when another apply without a configuration
	// change is expected to change something: the job is unfinished, was
	// interrupted, or gave up on errors that may heal. False means it
	// succeeded, or failed for a reason only a changed configuration fixes.
	Progressing bool
	// Message is the root's last error, or "" on success.
	Message string
}

// Summarize computes the Summary of a snapshot.
func Summarize(s *Snapshot) Summary {
	if s.Empty() {
		return Summary{}
	}
	sum := Summary{Phase: s.Root.Phase}
	if s.Root.LastError != nil {
		sum.Message = s.Root.LastError.Message
	}
	if !snapshot.Finished(s.Root.JobID, s.Root.JobIDFinished) {
		sum.Progressing = true
		return sum
	}
	retryable := func(e *snapshot.Error) bool { return e != nil && e.Retryable }
	for _, in := range s.Installations() {
		if retryable(in.LastError) || (in.Execution != nil && retryable(in.Execution.LastError)) {
			sum.Progressing = true
		}
	}
	for _, it := range s.DeployItems() {
		if retryable(it.LastError) {
			sum.Progressing = true
		}
	}
	return sum
}
