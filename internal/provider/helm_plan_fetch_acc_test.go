package provider

import (
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
)

// A plan fetches a remote Helm chart only from the location the item's
// last apply fetched from (security.md, "Reach the network at plan"): the
// plan that creates an item of a chart URL sends the chart's host no
// request and shows the item as not previewed, without a warning; after
// the apply, a plan of new values fetches the chart from that URL and
// shows them, and a plan of another URL on the same host (a bucket's
// other owner) sends it nothing.
func TestAccInstallation_helmChartNotFetchedAtPlan(t *testing.T) {
	requireAcc(t)
	e := newAccEnv(t)
	tgz := (&ociLandscape{t: t}).archive("chart", "greeting/")
	var requests atomic.Int32
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var leaked atomic.Int32 // requests for the other owner's path
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		if strings.Contains(r.URL.Path, "s3cr3t") {
			leaked.Add(1)
		}
		_, _ = w.Write(tgz)
	}))
	srv.Listener = l
	srv.Start()
	t.Cleanup(srv.Close)
	configAt := func(chartURL, greeting string) string {
		items := fmt.Sprintf(`- name: remote
  type: landscaper.gardener.cloud/helm
  target: {import: cluster}
  config:
    apiVersion: helm.deployer.landscaper.gardener.cloud/v1alpha1
    kind: ProviderConfiguration
    name: remote
    namespace: %s
    chart: {archive: {remote: {url: %q}}}
    values: {name: remote-chart, greeting: %s, component: none}
`, e.namespace, chartURL, greeting)
		return inlineInstallation(e.targetHCL, "app", e.namespace, items)
	}
	config := func(greeting string) string { return configAt(srv.URL+"/greeting-0.1.0.tgz", greeting) }
	w := newCLIWorkspace(t, config("hello"))
	out := w.mustRun("plan", "-input=false", "-no-color")
	if requests.Load() != 0 || !strings.Contains(out, "no preview: the chart is fetched at apply, not at plan") ||
		strings.Contains(out, "Deploy Item Not Previewed") {
		t.Fatalf("the create's plan sent %d requests to the chart's host or did not say it is not previewed:\n%s", requests.Load(), out)
	}
	w.mustRun("apply", "-input=false", "-auto-approve")
	if err := e.configMapData("remote-chart", map[string]string{"greeting": "hello", "component": "none"})(nil); err != nil {
		t.Fatal(err)
	}
	w.write(config("hi"))
	requests.Store(0)
	out = w.mustRun("plan", "-input=false", "-no-color")
	if requests.Load() == 0 || !strings.Contains(out, "greeting: hi") {
		t.Errorf("the plan of new values did not preview the chart from the applied URL (%d requests):\n%s", requests.Load(), out)
	}
	// Applied, so that the state shows objects, not the create's note.
	// The refresh still resolves the applied URL's digest (a pin); only
	// the new path must get nothing.
	w.mustRun("apply", "-input=false", "-auto-approve")
	w.write(configAt(srv.URL+"/s3cr3t-owner/greeting-0.1.0.tgz", "hi"))
	out = w.mustRun("plan", "-input=false", "-no-color")
	if leaked.Load() != 0 || !strings.Contains(out, "no preview: the chart is fetched at apply, not at plan") {
		t.Errorf("the plan of another URL on the applied host sent it %d requests or previewed it:\n%s", leaked.Load(), out)
	}
	w.mustRun("destroy", "-input=false", "-auto-approve")
}
