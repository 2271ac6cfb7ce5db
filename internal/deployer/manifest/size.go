package manifest

import (
	"encoding/json"
	"strings"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/failure"
)

// Limits of the API server that no retry overcomes: it refuses a request
// body above maxRequestBytes ("Request entity too large") and a ConfigMap
// or Secret whose data exceed maxDataBytes ("Too long"). An object beyond
// either is refused at plan (Validate), before anything of the
// installation is created, instead of failing the apply after everything
// before it was deployed.
const (
	maxRequestBytes = 3 << 20
	maxDataBytes    = 1 << 20
)

// checkSizes refuses an object of desired that the API server would
// refuse for its size, naming it, its size, the limit and what to do.
// A manifest whose JSON is within the request limit holds no object
// beyond it, so only larger ones are encoded again.
func checkSizes(manifests []Manifest, desired []*Desired) error {
	large := false
	for _, m := range manifests {
		large = large || len(m.Manifest) > maxRequestBytes
	}
	for _, d := range desired {
		if n := dataBytes(d); n > maxDataBytes {
			return failure.Terminalf(failure.ReasonTooLarge, "%s: its data are %d bytes, more than the %d bytes the API server lets a %s hold "+
				"(it would refuse it as \"Too long\"): split the data over several %ss, or ship them another way (an image, a volume)",
				d.Ref(), n, maxDataBytes, d.Object.GetKind(), d.Object.GetKind())
		}
		if !large {
			continue
		}
		if b, err := json.Marshal(d.Object.Object); err == nil && len(b) > maxRequestBytes {
			return failure.Terminalf(failure.ReasonTooLarge, "%s: the object is %d bytes as JSON, more than the %d bytes the API server takes in "+
				"one request (it would refuse it as \"Request entity too large\"): split it into several objects", d.Ref(), len(b), maxRequestBytes)
		}
	}
	return nil
}

// dataBytes is what the API server counts against maxDataBytes of a
// ConfigMap (its keys and values, data and binaryData) or a Secret (its
// values, decoded; stringData is folded into data by now); 0 for other
// objects.
func dataBytes(d *Desired) int {
	if d.Object.GetAPIVersion() != "v1" {
		return 0
	}
	data, _ := d.Object.Object["data"].(map[string]any)
	n := 0
	switch d.Object.GetKind() {
	case "ConfigMap":
		binary, _ := d.Object.Object["binaryData"].(map[string]any)
		for k, v := range data {
			s, _ := v.(string)
			n += len(k) + len(s)
		}
		for k, v := range binary {
			s, _ := v.(string)
			n += len(k) + decodedLen(s)
		}
	case "Secret":
		for _, v := range data {
			s, _ := v.(string)
			n += decodedLen(s)
		}
	}
	return n
}

// decodedLen is the length of the bytes of base64 s (padded, as the API
// server keeps them).
func decodedLen(s string) int {
	return len(s)/4*3 - (len(s) - len(strings.TrimRight(s, "=")))
}
