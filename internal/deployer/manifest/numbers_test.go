package manifest

import (
	"encoding/json"
	"testing"
)

// Integers above 2^53 in a manifest reach the API server with every
// digit: decoding into the unstructured object keeps them int64, which is
// also what objects read from the cluster hold (so comparisons agree).
func TestDecodeManifests_integersAbove2p53StayExact(t *testing.T) {
	const big = int64(9007199254740993) // 2^53 + 1
	objs, err := DecodeManifests("item", []Manifest{{Policy: PolicyManage,
		Manifest:             json.RawMessage(`{"apiVersion": "batch/v1", "kind": "CronJob", "metadata": {"name": "x"}, "spec": {"startingDeadlineSeconds": 9007199254740993}}`),
		PatchAfterDeployment: json.RawMessage(`{"spec": {"suspend": true, "failedJobsHistoryLimit": 9007199254740993}}`)}})
	if err != nil {
		t.Fatal(err)
	}
	spec := objs[0].Object.Object["spec"].(map[string]any)
	if got, ok := spec["startingDeadlineSeconds"].(int64); !ok || got != big {
		t.Errorf("manifest: %T %v, want int64 %d", spec["startingDeadlineSeconds"], spec["startingDeadlineSeconds"], big)
	}
	patched := expected(objs[0])["spec"].(map[string]any)
	if got, ok := patched["failedJobsHistoryLimit"].(int64); !ok || got != big {
		t.Errorf("patchAfterDeployment: %T %v, want int64 %d", patched["failedJobsHistoryLimit"], patched["failedJobsHistoryLimit"], big)
	}
}
