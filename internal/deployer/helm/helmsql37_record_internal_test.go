package helm

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"helm.sh/helm/v3/pkg/action"
	"helm.sh/helm/v3/pkg/chart"
	"helm.sh/helm/v3/pkg/chartutil"
	kubefake "helm.sh/helm/v3/pkg/kube/fake"
	"helm.sh/helm/v3/pkg/release"
	"helm.sh/helm/v3/pkg/storage"
	"helm.sh/helm/v3/pkg/storage/driver"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes/fake"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/failure"
)

// randomText is n bytes of incompressible text (base64 of random bytes).
func randomText(t testing.TB, n int) string {
	t.Helper()
	b := make([]byte, n*3/4+3)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	return base64.StdEncoding.EncodeToString(b)[:n]
}

// recordChart has incompressible data in a file, in its values and (via
// both) in the rendered manifest, a hook and notes: every part Helm
// records.
func recordChart(t testing.TB, n int) *chart.Chart {
	t.Helper()
	return &chart.Chart{
		Metadata: &chart.Metadata{APIVersion: chart.APIVersionV2, Name: "record", Version: "0.1.0"},
		Templates: []*chart.File{
			{Name: "templates/cm.yaml", Data: []byte(`apiVersion: v1
kind: ConfigMap
metadata: {name: {{ .Release.Name }}-file}
data:
  file: {{ .Files.Get "files/data.txt" | quote }}
  value: {{ .Values.blob | quote }}
`)},
			{Name: "templates/hook.yaml", Data: []byte(`apiVersion: v1
kind: ConfigMap
metadata:
  name: {{ .Release.Name }}-hook
  annotations: {helm.sh/hook: post-install}
data: {revision: "{{ .Release.Revision }}"}
`)},
			{Name: "templates/NOTES.txt", Data: []byte("Installed {{ .Release.Name }} at revision {{ .Release.Revision }}.\n")},
		},
		Files:  []*chart.File{{Name: "files/data.txt", Data: []byte(randomText(t, n))}},
		Values: map[string]any{"blob": ""},
	}
}

// helmRecordSizes installs ch and upgrades it once with Helm's own
// actions into Helm's Secret driver (on a fake clientset), and returns
// the data size of each revision's Secret as Helm wrote it.
func helmRecordSizes(t *testing.T, ch *chart.Chart, vals map[string]any, labels map[string]string) [2]int {
	t.Helper()
	secrets := fake.NewSimpleClientset().CoreV1().Secrets("apps")
	cfg := &action.Configuration{Releases: storage.Init(driver.NewSecrets(secrets)), KubeClient: &kubefake.PrintingKubeClient{Out: io.Discard},
		Capabilities: chartutil.DefaultCapabilities, Log: func(string, ...any) {}}
	install := action.NewInstall(cfg)
	install.ReleaseName, install.Namespace, install.PostRenderer = "big", "apps", stamper(labels)
	if _, err := install.Run(ch, vals); err != nil {
		t.Fatal(err)
	}
	upgrade := action.NewUpgrade(cfg)
	upgrade.Namespace, upgrade.PostRenderer = "apps", stamper(labels)
	if _, err := upgrade.Run("big", ch, vals); err != nil {
		t.Fatal(err)
	}
	var out [2]int
	for i := range out {
		s, err := secrets.Get(context.Background(), fmt.Sprintf("sh.helm.release.v1.big.v%d", i+1), metav1.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range s.Data {
			out[i] += len(v)
		}
	}
	return out
}

// measured is the record size the sandbox's child reports for the
// install (revision 1) or the upgrade (revision 2) of ch, computed
// in-process the way renderInChild does.
func measured(t *testing.T, ch *chart.Chart, vals map[string]any, labels map[string]string, revision int) int {
	t.Helper()
	raw, err := json.Marshal(vals)
	if err != nil {
		t.Fatal(err)
	}
	opts := chartutil.ReleaseOptions{Name: "big", Namespace: "apps", Revision: revision, IsInstall: revision == 1, IsUpgrade: revision > 1}
	r := chartRender{cfg: &ProviderConfiguration{Values: raw}, caps: chartutil.DefaultCapabilities, options: opts, real: true}
	renderValues, err := r.prepare(ch, r.cfg.values())
	if err != nil {
		t.Fatal(err)
	}
	files, err := r.files(ch, renderValues)
	if err != nil {
		t.Fatal(err)
	}
	rel, err := r.record(ch, files, labels)
	if err != nil {
		t.Fatal(err)
	}
	size, err := recordSize(rel)
	if err != nil {
		t.Fatal(err)
	}
	return size
}

// TestRecord_MeasuresWhatHelmWrites: the size measured for a release is
// what Helm's Secret driver writes for it — install and upgrade, with
// the post-renderer's labels — within recordSlack, and never less than
// that minus the slack: the check refuses every record a Secret cannot
// hold and, but for recordSlack bytes, none that it can.
func TestRecord_MeasuresWhatHelmWrites(t *testing.T) {
	for _, n := range []int{1 << 10, 200 << 10} {
		ch := recordChart(t, n)
		vals := map[string]any{"blob": randomText(t, n/2)}
		labels := map[string]string{deployer.InstanceLabel: "a3f6c9e2-1b4d-4c8e-9f0a-123456789abc", deployer.PartOfLabel: "applyset-abcdef"}
		written := helmRecordSizes(t, ch, vals, labels)
		for i, w := range written {
			got := measured(t, ch, vals, labels, i+1)
			if got+recordSlack < w || got > w+recordSlack {
				t.Errorf("data of %d bytes, revision %d: measured %d bytes, Helm wrote %d", n, i+1, got, w)
			}
		}
		// Without the labels the measure is of another manifest: the
		// stamp is part of what is measured.
		if unstamped := measured(t, ch, vals, nil, 1); n > 100<<10 && unstamped == measured(t, ch, vals, labels, 1) {
			t.Errorf("the measure does not change with the post-renderer's labels")
		}
	}
}

// TestRecordError_NamesEverything: the refusal names the installation,
// the item, the release, the size and the limit, says what to do, wraps
// deployer.ErrBeyondLimit and is terminal with reason TooLarge; a record
// that fits is no error.
func TestRecordError_NamesEverything(t *testing.T) {
	if err := recordError("root/sub/web", "apps", "big", secretDataLimit-recordSlack); err != nil {
		t.Fatalf("a record that fits: %v", err)
	}
	err := recordError("root/sub/web", "apps", "big", 4_200_000)
	if err == nil {
		t.Fatal("a record of 4.2 MB is accepted")
	}
	for _, want := range []string{`installation "root/sub"`, `deploy item "web"`, "apps/big", "4200000 bytes", "1048576 bytes", `driver = "sql"`} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
	if !errors.Is(err, deployer.ErrBeyondLimit) {
		t.Errorf("error does not wrap deployer.ErrBeyondLimit: %v", err)
	}
	if !failure.IsTerminal(err) || failure.Reason(err) != "TooLarge" {
		t.Errorf("error is %s with reason %q, want terminal with TooLarge", failure.KindOf(err), failure.Reason(err))
	}
}

// TestRecordBound_NeverBelowTheRecord: the bound that skips compression
// is never below the record's size, for incompressible and repetitive
// records, below and above the point where it compresses after all.
func TestRecordBound_NeverBelowTheRecord(t *testing.T) {
	for _, n := range []int{0, 1 << 10, 100 << 10, 700 << 10, 2 << 20} {
		for _, data := range []string{randomText(t, n), strings.Repeat("a", n)} {
			rel := &release.Release{Name: "big", Namespace: "apps", Manifest: data, Version: 1}
			exact, err := recordSize(rel)
			if err != nil {
				t.Fatal(err)
			}
			bound, err := recordBound(rel)
			if err != nil {
				t.Fatal(err)
			}
			if bound < exact || (bound+recordSlack > secretDataLimit && bound != exact) {
				t.Errorf("%d bytes of data: bound %d, record %d", n, bound, exact)
			}
		}
	}
}
