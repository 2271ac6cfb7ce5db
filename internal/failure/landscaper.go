package failure

import (
	"context"
	"errors"
	"slices"
	"strings"
)

// Landscaper's error codes (a DeployItem's status.lastError.codes) that
// this provider reports itself; a deployer may report others.
const (
	CodeTimeout              = "ERR_TIMEOUT"
	CodeConfigurationProblem = "ERR_CONFIGURATION_PROBLEM"
	CodeInternalProblem      = "ERR_INTERNAL_PROBLEM"
)

// Landscaper's error codes that mean the same thing will fail again: a
// configuration or internal problem, a timeout, a dependency cycle.
// Landscaper's controllers stop retrying on these ("unrecoverable");
// every other code, and no code, leaves a retry worthwhile.
var landscaperFinalCodes = []string{
	CodeConfigurationProblem,
	CodeInternalProblem,
	CodeTimeout,
	"ERR_CYCLIC_DEPENDENCIES",
}

// coded carries the codes a Landscaper deployer reported with an error.
type coded struct {
	codes []string
	err   error
}

func (e *coded) Error() string { return e.err.Error() }
func (e *coded) Unwrap() error { return e.err }

// FromLandscaperCodes classifies err, which a Landscaper deployer reported
// with codes: terminal when one of them tells that a retry cannot help,
// transient otherwise. reason becomes the error's reason code; Codes
// returns codes.
func FromLandscaperCodes(reason string, codes []string, err error) error {
	if len(codes) > 0 {
		err = &coded{codes: slices.Clone(codes), err: err}
	}
	for _, c := range codes {
		if slices.Contains(landscaperFinalCodes, c) {
			return NewTerminal(reason, err)
		}
	}
	return NewTransient(reason, err)
}

// Codes returns err's Landscaper error codes, as a Landscaper deployer
// would report them for it: the codes an external deployer reported
// (FromLandscaperCodes), else those its reason implies — ERR_TIMEOUT for
// every timeout, ERR_CONFIGURATION_PROBLEM for a terminal error of
// invalid input (a size limit among them), ERR_INTERNAL_PROBLEM for a panic. Nil when none applies.
func Codes(err error) []string {
	var c *coded
	if errors.As(err, &c) {
		return slices.Clone(c.codes)
	}
	reason := Reason(err)
	switch {
	case err == nil:
		return nil
	case strings.HasSuffix(reason, "Timeout") || errors.Is(err, context.DeadlineExceeded):
		return []string{CodeTimeout}
	case reason == ReasonPanic:
		return []string{CodeInternalProblem}
	case IsTerminal(err) && (strings.HasPrefix(reason, "Invalid") || reason == "UnknownDeployItemType" || reason == ReasonTooLarge):
		return []string{CodeConfigurationProblem}
	}
	return nil
}
