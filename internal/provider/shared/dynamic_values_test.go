package shared

import (
	"context"
	"encoding/json"
	"math/big"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/types"
)

// TestGoNumber: Terraform numbers (big.Float) reach the engine without
// losing a digit: integers as int64 or, beyond int64, as a json.Number of
// their digits; other numbers as float64 when that keeps their shortest
// decimal form, else as a json.Number. Back in Terraform (attrValue) each
// is the number it was.
func TestGoNumber(t *testing.T) {
	tests := []struct {
		in       string
		wantJSON string
		wantType string
	}{
		{"42", "42", "int64"},
		{"-9223372036854775808", "-9223372036854775808", "int64"},
		{"9007199254740993", "9007199254740993", "int64"}, // 2^53+1, which float64 rounds
		{"9223372036854775808", "9223372036854775808", "json.Number"},
		{"-123456789012345678901234567890", "-123456789012345678901234567890", "json.Number"},
		{"0.1", "0.1", "float64"},
		{"1.5e300", "1.5e+300", "float64"},
		{"3.14159265358979323846264338327950288", "3.14159265358979323846264338327950288", "json.Number"},
	}
	ctx := context.Background()
	for _, tt := range tests {
		f, _, err := big.ParseFloat(tt.in, 10, 512, big.ToNearestEven)
		if err != nil {
			t.Fatal(err)
		}
		got, err := GoValue(ctx, types.NumberValue(f))
		if err != nil {
			t.Fatalf("%s: %v", tt.in, err)
		}
		typ := map[bool]string{true: "int64"}[isInt64(got)]
		switch got.(type) {
		case json.Number:
			typ = "json.Number"
		case float64:
			typ = "float64"
		}
		if typ != tt.wantType {
			t.Errorf("%s: a %T, want %s", tt.in, got, tt.wantType)
		}
		b, err := json.Marshal(got)
		if err != nil || string(b) != tt.wantJSON {
			t.Errorf("%s: marshals to %s (%v), want %s", tt.in, b, err, tt.wantJSON)
		}
		back, err := attrValue(got)
		if err != nil {
			t.Fatalf("%s back: %v", tt.in, err)
		}
		n, ok := back.(types.Number)
		if !ok || n.ValueBigFloat().Cmp(f) != 0 && n.ValueBigFloat().Text('g', -1) != f.Text('g', -1) {
			t.Errorf("%s: back in Terraform %v", tt.in, back)
		}
	}
}

func isInt64(v any) bool {
	_, ok := v.(int64)
	return ok
}

// TestGoValue_NestedBigIntegers: numbers inside objects and tuples keep
// their digits through goValue and dynamicValue.
func TestGoValue_NestedBigIntegers(t *testing.T) {
	in := map[string]any{"ids": []any{json.Number("18446744073709551617"), int64(1)}, "size": json.Number("0.30000000000000000001")}
	dv, err := DynamicValue(in)
	if err != nil {
		t.Fatal(err)
	}
	out, err := GoValue(context.Background(), dv.UnderlyingValue())
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(out)
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"ids":[18446744073709551617,1],"size":0.30000000000000000001}`; string(b) != want {
		t.Errorf("round trip: %s, want %s", b, want)
	}
}
