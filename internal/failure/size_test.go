package failure

import (
	"errors"
	"fmt"
	"slices"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// An error that says a size limit was exceeded is terminal however it got
// here — as the API server's status, wrapped, marked transient by the
// package that met it, or flattened into text — and carries
// ReasonTooLarge and ERR_CONFIGURATION_PROBLEM; other API errors keep
// their kind.
func TestTooLarge(t *testing.T) {
	secrets := schema.GroupKind{Kind: "Secret"}
	entity := apierrors.NewRequestEntityTooLargeError("limit is 3145728")
	tooLong := apierrors.NewInvalid(secrets, "landscaper-inventory-x", field.ErrorList{field.TooLong(field.NewPath("data"), "", 1048576)})
	for _, tc := range []struct {
		name     string
		err      error
		tooLarge bool
		terminal bool
		reason   string
	}{
		{"request entity too large", entity, true, true, ReasonTooLarge},
		{"wrapped", fmt.Errorf("release a/b: install: %w", entity), true, true, ReasonTooLarge},
		{"marked transient", NewTransient("Write", fmt.Errorf("writing: %w", entity)), true, true, ReasonTooLarge},
		{"secret data too long", fmt.Errorf("installation inventory: %w", tooLong), true, true, ReasonTooLarge},
		{"terminal with its own reason", NewTerminal("InvalidManifest", tooLong), true, true, "InvalidManifest"},
		{"flattened text", errors.New(`create: failed to create: Request entity too large: limit is 3145728`), true, true, ReasonTooLarge},
		{"flattened too long", errors.New(`Secret "x" is invalid: data: Too long: may not be more than 1048576 bytes`), true, true, ReasonTooLarge},
		{"etcd", errors.New("etcdserver: request is too large"), true, true, ReasonTooLarge},
		{"other invalid", apierrors.NewInvalid(secrets, "x", field.ErrorList{field.Required(field.NewPath("type"), "")}), false, false, ""},
		{"conflict", apierrors.NewConflict(schema.GroupResource{Resource: "secrets"}, "x", errors.New("changed")), false, false, ""},
		{"transient", NewTransient("Unreachable", errors.New("connection refused")), false, false, "Unreachable"},
		{"nil", nil, false, false, ""},
	} {
		if got := IsTooLarge(tc.err); got != tc.tooLarge {
			t.Errorf("%s: IsTooLarge = %v, want %v", tc.name, got, tc.tooLarge)
		}
		if got := IsTerminal(tc.err); got != tc.terminal {
			t.Errorf("%s: IsTerminal = %v, want %v", tc.name, got, tc.terminal)
		}
		if got := Reason(tc.err); got != tc.reason {
			t.Errorf("%s: Reason = %q, want %q", tc.name, got, tc.reason)
		}
		if tc.reason == ReasonTooLarge && !slices.Equal(Codes(tc.err), []string{CodeConfigurationProblem}) {
			t.Errorf("%s: Codes = %v, want %s", tc.name, Codes(tc.err), CodeConfigurationProblem)
		}
	}
}
