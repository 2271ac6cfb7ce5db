package failure

import (
	"errors"
	"testing"
)

// A code Landscaper treats as final makes the error terminal; other codes,
// and none, leave it transient. The reason is kept either way.
func TestFromLandscaperCodes(t *testing.T) {
	cause := errors.New("the deployer failed")
	for _, tc := range []struct {
		codes    []string
		terminal bool
	}{
		{nil, false},
		{[]string{"ERR_UNAUTHORIZED"}, false},
		{[]string{"ERR_FOR_INFO_ONLY", "ERR_TIMEOUT"}, true},
		{[]string{"ERR_CONFIGURATION_PROBLEM"}, true},
		{[]string{"ERR_INTERNAL_PROBLEM"}, true},
		{[]string{"ERR_CYCLIC_DEPENDENCIES"}, true},
		{[]string{"err_timeout"}, false}, // codes are case-sensitive, as in Landscaper
	} {
		err := FromLandscaperCodes("DeployerFailed", tc.codes, cause)
		if IsTerminal(err) != tc.terminal {
			t.Errorf("codes %v: terminal = %v, want %v", tc.codes, IsTerminal(err), tc.terminal)
		}
		if Reason(err) != "DeployerFailed" || !errors.Is(err, cause) {
			t.Errorf("codes %v: reason %q / cause lost: %v", tc.codes, Reason(err), err)
		}
	}
}
