package landscaperrecording

import (
	"crypto/sha1" //nolint:gosec // Landscaper's change detection of DataObjects, not a security use
	"encoding/hex"
	"encoding/json"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// dataHashAnnotation is where Landscaper keeps a hash of the data of a
// DataObject it wrote, to see whether it changed.
const dataHashAnnotation = "data.landscaper.gardener.cloud/hash"

// dataHash is that hash as Landscaper computes it: hex SHA-1 of the data
// as Go marshals it indented by two spaces (the recordings pin this).
func dataHash(do *unstructured.Unstructured) (string, error) {
	raw, err := json.MarshalIndent(do.Object["data"], "", "  ")
	if err != nil {
		return "", err
	}
	sum := sha1.Sum(raw) //nolint:gosec // see above
	return hex.EncodeToString(sum[:]), nil
}

// mapDataObject maps the strings of a DataObject and keeps its hash
// annotation true to the new data, if it was true to the recorded data.
// (A Target's hash is over its config as Landscaper stored the bytes,
// which holds the recording's kubeconfig; it is left as recorded.)
func mapDataObject(do *unstructured.Unstructured, fn func(string) string) error {
	recorded, has := do.GetAnnotations()[dataHashAnnotation]
	before, err := dataHash(do)
	if err != nil {
		return err
	}
	if err := mapStrings(do, fn); err != nil {
		return err
	}
	if !has || before != recorded {
		return nil
	}
	now, err := dataHash(do)
	if err != nil {
		return err
	}
	annotations := do.GetAnnotations()
	annotations[dataHashAnnotation] = now
	do.SetAnnotations(annotations)
	return nil
}
