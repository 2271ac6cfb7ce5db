package helm_test

import (
	"context"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer/helm"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/target"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/testsupport/localcluster"
)

// TestDrift_DeletedReleaseObject: an object deleted behind a release's back
// is reported as drift and recreated by the next Apply.
func TestDrift_DeletedReleaseObject(t *testing.T) {
	ns := localcluster.Namespace(t)
	d := helm.New(target.NewPool())
	item := helmItem(t, "drift", helmConfig(t, ns, rawChart(t, valuesChart(t, ns)), map[string]any{"name": "drifty", "values": map[string]any{"v": "1"}}))
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	res, err := d.Apply(ctx, item)
	if err != nil {
		t.Fatal(err)
	}
	item.ProviderStatus = res.ProviderStatus
	c := newClusterReader(t)
	if err := c.c.CoreV1().ConfigMaps(ns).Delete(ctx, "drifty", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	report, err := d.Drift(ctx, item)
	if err != nil || !report.Drifted || !strings.Contains(report.Reason, "drifty") {
		t.Fatalf("Drift = %+v, %v; want drift naming the deleted ConfigMap", report, err)
	}
	if _, err := d.Apply(ctx, item); err != nil {
		t.Fatal(err)
	}
	if c.configMapData(t, ns, "drifty")["v"] != "1" {
		t.Fatal("Apply did not recreate the deleted object")
	}
}

// TestDrift_BlockScalarEndingADocument: a document that ends in a block
// scalar (`data: {x: |…}`) keeps the scalar's final line break in the
// cluster, as Helm applies the whole stream; the release manifest read
// back must keep it too. Before, each document was trimmed: every drift
// check reported such a release drifted (Landscaper's releases of the
// recorded landscape too), and every apply upgraded it again. For a
// rendered chart (helmDeployment false) the object applied keeps it, as
// Landscaper's Helm deployer applies it.
func TestDrift_BlockScalarEndingADocument(t *testing.T) {
	ns := localcluster.Namespace(t)
	d := helm.New(target.NewPool())
	ch := testChart(t, nil, map[string]string{"cm.yaml": `apiVersion: v1
kind: ConfigMap
metadata: {name: {{ .Release.Name }}, namespace: ` + ns + `}
data:
  config.yaml: |
    interval: 15s
    targets:
    - a
`})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	for _, asRelease := range []bool{true, false} {
		name := map[bool]string{true: "release", false: "rendered"}[asRelease]
		item := helmItem(t, "block-"+name, helmConfig(t, ns, rawChart(t, ch), map[string]any{"name": name, "helmDeployment": asRelease}))
		res, err := d.Apply(ctx, item)
		if err != nil {
			t.Fatal(err)
		}
		if got := newClusterReader(t).configMapData(t, ns, name)["config.yaml"]; got != "interval: 15s\ntargets:\n- a\n" {
			t.Errorf("%s: the ConfigMap holds %q", name, got)
		}
		item.ProviderStatus = res.ProviderStatus
		if report, err := d.Drift(ctx, item); err != nil || report.Drifted {
			t.Errorf("%s: Drift = %+v, %v; want nothing drifted", name, report, err)
		}
	}
}

// TestDrift_ZeroValuesAndNormalisedFields: what real charts write and the
// API server stores otherwise — zero values it leaves out (hostNetwork:
// false, minReadySeconds: 0, initialDelaySeconds: 0, ""), quantities
// written as numbers (cpu: 1, memory in bytes), int-or-string fields
// (ports by name and number, maxSurge as a percentage), a Secret's stringData, a status block — is no drift, for a
// release and for a rendered chart; a value changed behind the item's
// back still is. Before, the first plan after every apply reported such a
// chart drifted and every apply upgraded it again.
func TestDrift_ZeroValuesAndNormalisedFields(t *testing.T) {
	ns := localcluster.Namespace(t)
	d := helm.New(target.NewPool())
	ch := testChart(t, nil, map[string]string{"objs.yaml": `apiVersion: apps/v1
kind: Deployment
metadata: {name: {{ .Release.Name }}, namespace: ` + ns + `}
spec:
  replicas: 1
  minReadySeconds: 0
  strategy: {rollingUpdate: {maxUnavailable: 1, maxSurge: 25%}}
  selector: {matchLabels: {app: {{ .Release.Name }}}}
  template:
    metadata: {labels: {app: {{ .Release.Name }}}, annotations: {}}
    spec:
      hostNetwork: false
      hostIPC: false
      hostPID: false
      serviceAccountName: ""
      automountServiceAccountToken: false
      tolerations: []
      containers:
      - name: app
        image: registry.invalid/app:1
        args: []
        ports: [{name: http, containerPort: 8080}]
        livenessProbe: {tcpSocket: {port: http}, initialDelaySeconds: 0, timeoutSeconds: 1}
        resources: {limits: {cpu: 1, memory: 268435456}, requests: {cpu: 0.5, memory: 128Mi}}
        securityContext: {privileged: false, readOnlyRootFilesystem: true}
status: {}
---
apiVersion: v1
kind: Service
metadata: {name: {{ .Release.Name }}, namespace: ` + ns + `}
spec:
  selector: {app: {{ .Release.Name }}}
  ports: [{name: http, port: 80, targetPort: http}, {name: metrics, port: 9090, targetPort: 9090}]
---
apiVersion: v1
kind: Secret
metadata: {name: {{ .Release.Name }}, namespace: ` + ns + `}
stringData: {password: {{ .Values.password | quote }}}
`})
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	c := newClusterReader(t)
	for _, asRelease := range []bool{true, false} {
		name := map[bool]string{true: "zero-release", false: "zero-rendered"}[asRelease]
		item := helmItem(t, name, helmConfig(t, ns, rawChart(t, ch), map[string]any{"name": name, "helmDeployment": asRelease, "values": map[string]any{"password": "s3cret"}}))
		res, err := d.Apply(ctx, item)
		if err != nil {
			t.Fatal(err)
		}
		item.ProviderStatus = res.ProviderStatus
		if report, err := d.Drift(ctx, item); err != nil || report.Drifted {
			t.Fatalf("%s: Drift = %+v, %v; want nothing drifted", name, report, err)
		}
		dep, err := c.c.AppsV1().Deployments(ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		dep.Spec.Template.Spec.HostNetwork = true
		if _, err := c.c.AppsV1().Deployments(ns).Update(ctx, dep, metav1.UpdateOptions{FieldManager: "someone-else"}); err != nil {
			t.Fatal(err)
		}
		report, err := d.Drift(ctx, item)
		if err != nil || !report.Drifted || !strings.Contains(report.Reason, `.spec.template.spec.hostNetwork (held by field manager "someone-else")`) {
			t.Fatalf("%s: Drift = %+v, %v; want drift at hostNetwork naming the manager that took it", name, report, err)
		}
	}
}
