package helm

import (
	"strings"
	"testing"

	"helm.sh/helm/v3/pkg/release"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
)

// A migration adopts a release only when Landscaper's DeployItem describes
// it. Landscaper's Helm deployer records every workload of the release's
// manifest, so a DeployItem whose record is empty (anyone who may write
// DeployItems on the host cluster can write one) does not get a release
// with workloads — a hand-installed one — adopted; a release without
// workloads still is, since its record is empty in Landscaper too (issue
// 32, suspicion a).
func TestRecordedInRelease_EmptyRecordAdoptsNoWorkloads(t *testing.T) {
	const workloads = `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: web-config}
`
	const configOnly = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: web-config}\n"
	recordedWeb := []byte(`{"managedResources":[{"resource":{"apiVersion":"apps/v1","kind":"Deployment","name":"web","namespace":"ns"}}]}`)
	for _, tc := range []struct {
		name, manifest string
		status         []byte
		want           string // "" adopts
	}{
		{"empty record, release with a workload", workloads, []byte(`{"managedResources":[]}`), "Deployment.apps ns/web, which Landscaper did not record"},
		{"no record, release with a workload", workloads, nil, "which Landscaper did not record"},
		{"record of the workload", workloads, recordedWeb, ""},
		{"empty record, release without workloads", configOnly, []byte(`{"managedResources":[]}`), ""},
		{"record of a workload the release lacks", configOnly, recordedWeb, "which Landscaper recorded"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			objs, err := releaseObjects(&release.Release{Manifest: tc.manifest})
			if err != nil {
				t.Fatal(err)
			}
			err = recordedInRelease(objs, "ns", deployer.Landscaped{DeployItem: "ns/di", ProviderStatus: tc.status})
			switch {
			case tc.want == "" && err != nil:
				t.Errorf("not adopted: %v", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Errorf("err = %v, want %q", err, tc.want)
			}
		})
	}
}
