package snapshot

import (
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/failure"
)

// Operations of a job, as recorded in Error.Operation.
const (
	OperationReconcile = "Reconcile"
	OperationDelete    = "Delete"
)

// MarkInterrupted finishes every object below in (its execution, deploy
// items and subinstallations, recursively) that has not finished job
// jobID: Failed, or DeleteFailed for OperationDelete, with reason
// Interrupted. After an interrupt every object of the tree still finishes
// with the job (ARCHITECTURE.md, "Interrupts"). in itself is left to its
// own flow.
func (in *Installation) MarkInterrupted(jobID, operation string) {
	if e := in.Execution; e != nil {
		if !finishedWith(e.JobID, e.JobIDFinished, jobID) {
			e.JobID, e.JobIDFinished, e.LastError = jobID, jobID, interrupted(operation)
			e.Phase = api.ExecutionPhaseFailed
			if operation == OperationDelete {
				e.Phase = api.ExecutionPhaseDeleteFailed
			}
		}
		e.MarkInterrupted(jobID, operation)
	}
	for _, sub := range in.Subinstallations {
		if !finishedWith(sub.JobID, sub.JobIDFinished, jobID) {
			sub.JobID, sub.JobIDFinished, sub.LastError = jobID, jobID, interrupted(operation)
			sub.Phase = api.InstallationPhaseFailed
			if operation == OperationDelete {
				sub.Phase = api.InstallationPhaseDeleteFailed
			}
		}
		sub.MarkInterrupted(jobID, operation)
	}
}

// MarkInterrupted finishes the deploy items of e that have not finished
// job jobID, like Installation.MarkInterrupted.
func (e *Execution) MarkInterrupted(jobID, operation string) {
	for _, it := range e.DeployItems {
		if finishedWith(it.JobID, it.JobIDFinished, jobID) {
			continue
		}
		it.JobID, it.JobIDFinished, it.LastError = jobID, jobID, interrupted(operation)
		it.Phase = api.DeployItemPhaseFailed
		if operation == OperationDelete {
			it.Phase = api.DeployItemPhaseDeleteFailed
		}
	}
}

func finishedWith(id, finished, jobID string) bool { return id == jobID && finished == jobID }

func interrupted(operation string) *Error {
	return &Error{Operation: operation, Reason: failure.ReasonInterrupted, Retryable: true,
		Message: "the job was interrupted before this object was processed"}
}
