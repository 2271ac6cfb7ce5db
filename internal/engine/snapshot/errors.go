package snapshot

import (
	"strings"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/failure"
)

// NewError records err as an object's lastError during operation
// ("Reconcile" or "Delete"), classified by package failure.
func NewError(operation string, err error) *Error {
	reason := failure.Reason(err)
	return &Error{Operation: operation, Reason: reason, Message: err.Error(),
		Retryable: !failure.IsTerminal(err) || reason == failure.ReasonInterrupted, Codes: failure.Codes(err)}
}

// Text is the error as the user is told it: the message, Landscaper's
// error codes, and whether another apply without a change may help.
func (e *Error) Text() string {
	if e == nil {
		return ""
	}
	var b strings.Builder
	b.WriteString(e.Message)
	b.WriteString(" (")
	if len(e.Codes) > 0 {
		b.WriteString(strings.Join(e.Codes, ", "))
		b.WriteString("; ")
	}
	if e.Retryable {
		b.WriteString("another apply may succeed)")
	} else {
		b.WriteString("another apply will fail the same way until the cause is fixed)")
	}
	return b.String()
}
