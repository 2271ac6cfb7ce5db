package testgate

import "testing"

// TestRequire proves both sides of the gate: skipped without it, run with
// either switch.
func TestRequire(t *testing.T) {
	for _, tc := range []struct {
		name     string
		env, acc string
		skipped  bool
	}{
		{"off", "", "", true},
		{"make test", "1", "", false},
		{"acceptance", "", "1", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv(Env, tc.env)
			t.Setenv(accEnv, tc.acc)
			var inner *testing.T
			// A nested test isolates the Skip so this test can observe it.
			t.Run("probe", func(t *testing.T) {
				inner = t
				Require(t, "nothing")
			})
			if inner.Skipped() != tc.skipped {
				t.Errorf("Skipped() = %v, want %v", inner.Skipped(), tc.skipped)
			}
		})
	}
}
