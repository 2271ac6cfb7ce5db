package api

import (
	"bytes"
	"encoding/json"
	"errors"
	"slices"
	"strings"
)

// Values decoded with json.Decoder.UseNumber keep every number as a
// json.Number; float64 would round integers above 2^53 (IDs, sizes). The
// packages that hand such values on agree on one form (ExactNumber) and
// walk them with MapNumbers.

// DecodeExact decodes one JSON document into v like json.Unmarshal, but
// keeps every number as a json.Number (see above) and rejects data after
// the document unless opts allow it (AllowTrailing). Callers that hand
// the values on convert the numbers (MapNumbers); the snapshot keeps them
// as they are, since json.Number marshals back to the same digits. It is
// the one decoder of JSON with exact numbers: packages write no
// json.Decoder with UseNumber of their own.
func DecodeExact(data []byte, v any, opts ...DecodeOption) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if dec.More() && !slices.Contains(opts, AllowTrailing) {
		return errTrailingData
	}
	return nil
}

// DecodeOption changes what DecodeExact accepts.
type DecodeOption int

// AllowTrailing makes DecodeExact decode the first JSON document and
// ignore whatever follows it, as json.Decoder.Decode does.
const AllowTrailing DecodeOption = 1

var errTrailingData = errors.New("unexpected data after the JSON document")

// ExactNumber is n as the engine's values hold numbers: an integer as
// int64 (the type Terraform's integers arrive in; templates compare and
// compute with it); an integer beyond int64 as the json.Number itself,
// which prints and marshals as its digits; anything else as float64
// (a json.Number when beyond float64's range).
func ExactNumber(n json.Number) any {
	if i, err := n.Int64(); err == nil {
		return i
	}
	if !strings.ContainsAny(n.String(), ".eE") {
		return n
	}
	if f, err := n.Float64(); err == nil {
		return f
	}
	return n
}

// MapNumbers replaces every json.Number in v (nested in maps and lists,
// in place) by convert's result and returns v, or the converted number
// when v is one.
func MapNumbers(v any, convert func(json.Number) any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			x[k] = MapNumbers(e, convert)
		}
	case []any:
		for i, e := range x {
			x[i] = MapNumbers(e, convert)
		}
	case json.Number:
		return convert(x)
	}
	return v
}
