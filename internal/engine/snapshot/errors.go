package snapshot

import "github.com/landscaper-terraform/terraform-provider-landscaper/internal/failure"

// ReasonInterrupted is the lastError reason of objects an interrupt ended.
const ReasonInterrupted = "Interrupted"

// NewError records err as an object's lastError during operation
// ("Reconcile" or "Delete"), classified by package failure.
func NewError(operation string, err error) *Error {
	reason := failure.Reason(err)
	return &Error{Operation: operation, Reason: reason, Message: err.Error(),
		Retryable: !failure.IsTerminal(err) || reason == ReasonInterrupted}
}
