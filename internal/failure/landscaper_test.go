package failure

import (
	"context"
	"errors"
	"fmt"
	"slices"
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

// Codes reports what a deployer reported, through any wrapping, else
// what the reason implies; the kind never changes what is reported.
func TestCodes(t *testing.T) {
	cause := errors.New("boom")
	for _, tc := range []struct {
		name string
		err  error
		want []string
	}{
		{"reported", fmt.Errorf("deploy item a: %w", FromLandscaperCodes("X", []string{"ERR_UNAUTHORIZED", "ERR_FOR_INFO_ONLY"}, cause)), []string{"ERR_UNAUTHORIZED", "ERR_FOR_INFO_ONLY"}},
		{"reported final", FromLandscaperCodes("X", []string{CodeTimeout}, cause), []string{CodeTimeout}},
		{"progressing timeout", Terminalf("ProgressingTimeout", "late"), []string{CodeTimeout}},
		{"pickup timeout", fmt.Errorf("wrapped: %w", Terminalf("PickupTimeout", "nobody")), []string{CodeTimeout}},
		{"deadline", fmt.Errorf("reading: %w", context.DeadlineExceeded), []string{CodeTimeout}},
		{"invalid config", Terminalf("InvalidConfig", "bad"), []string{CodeConfigurationProblem}},
		{"unknown type", Terminalf("UnknownDeployItemType", "what"), []string{CodeConfigurationProblem}},
		{"panic", FromPanic("the deployer", "nil map"), []string{CodeInternalProblem}},
		{"transient invalid", NewTransient("InvalidSomething", cause), nil},
		{"plain", cause, nil},
		{"nil", nil, nil},
	} {
		if got := Codes(tc.err); !slices.Equal(got, tc.want) {
			t.Errorf("%s: Codes = %v, want %v", tc.name, got, tc.want)
		}
	}
}
