package snapshot

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// decodeExact decodes JSON like json.Unmarshal but keeps every number as
// a json.Number: configs, provider statuses, exports and execution state
// may hold integers above 2^53 (IDs, sizes, versions), which float64
// rounds. The codec's decode and the migrations' generic passes go
// through it, and json.Number marshals back to the same digits. Consumers of decoded exports handle json.Number (the
// provider's dynamic values, the template executors, schema validation).
func decodeExact(b []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if dec.More() {
		return fmt.Errorf("unexpected data after the JSON document")
	}
	return nil
}
