package failure

import "slices"

// Landscaper's error codes (DeployItem status.lastError.codes) that mean
// the same thing will fail again: a configuration or internal problem, a
// timeout, a dependency cycle. Landscaper's controllers stop retrying on
// these ("unrecoverable"); every other code, and no code, leaves a retry
// worthwhile.
var landscaperFinalCodes = []string{
	"ERR_CONFIGURATION_PROBLEM",
	"ERR_INTERNAL_PROBLEM",
	"ERR_TIMEOUT",
	"ERR_CYCLIC_DEPENDENCIES",
}

// FromLandscaperCodes classifies err, which a Landscaper deployer reported
// with codes: terminal when one of them tells that a retry cannot help,
// transient otherwise. reason becomes the error's reason code.
func FromLandscaperCodes(reason string, codes []string, err error) error {
	for _, c := range codes {
		if slices.Contains(landscaperFinalCodes, c) {
			return NewTerminal(reason, err)
		}
	}
	return NewTransient(reason, err)
}
