package landscaperstate_test

import (
	"testing"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/landscaperstate"
)

// TestDataObjectName: valid names in the root context stay, everything
// else is hashed the way Landscaper names its DataObjects (expected
// values computed independently: base32 of SHA-1, lower case, no padding).
func TestDataObjectName(t *testing.T) {
	for _, tc := range []struct{ context, key, want string }{
		{"", "shop-settings", "shop-settings"},
		{"", "My_Data", "2c24ryme6m5qp5aszryypwakbpibkrh2"},
		{"Inst.shop", "cluster", "2bf2rar56vhps6esz4cft4u27hzwbebd"},
		{"Exec.shop", "", "ei5wjspizeqbpbixpd3rsbfqhljbnudf"},
	} {
		if got := landscaperstate.DataObjectName(tc.context, tc.key); got != tc.want {
			t.Errorf("DataObjectName(%q, %q) = %s, want %s", tc.context, tc.key, got, tc.want)
		}
	}
}
