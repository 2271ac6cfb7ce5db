package hostaccess

import (
	"context"
	"encoding/base64"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes/fake"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/redact"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/target"
)

// Landscaper picks the longest configured URL that prefixes the chart's
// URL (no scheme meaning https); here the prefix must also keep to the
// host and to whole path segments.
func TestMatchChartRepoAuth(t *testing.T) {
	auths := []chartRepoAuth{
		{URL: "charts.example.com", AuthHeader: "host"},
		{URL: "https://charts.example.com/team/", AuthHeader: "team"},
		{URL: "http://127.0.0.1:8080/repo", AuthHeader: "loopback"},
	}
	for u, want := range map[string]string{
		"https://charts.example.com/index.yaml":         "host",
		"https://charts.example.com/team/index.yaml":    "team",
		"https://charts.example.com/team":               "team",
		"https://charts.example.com/teamwork/a.tgz":     "host",
		"https://charts.example.com.attacker.io/a.tgz":  "",
		"http://charts.example.com/index.yaml":          "",
		"http://127.0.0.1:8080/repo/charts/x-1.0.0.tgz": "loopback",
		"http://127.0.0.1:8081/repo/index.yaml":         "",
		"http://127.0.0.1:8080/repository/index.yaml":   "",
	} {
		got, ok := matchChartRepoAuth(auths, u)
		if ok != (want != "") || got.AuthHeader != want {
			t.Errorf("%s: got %q (%v), want %q", u, got.AuthHeader, ok, want)
		}
	}
}

// The credentials come from the Context of the installation: an inline
// header, or a Secret of the Context's namespace (key authHeader unless
// named); what was read is masked in every message from then on.
func TestChartAccess_ChartRepoAuth(t *testing.T) {
	header := "Basic " + base64.StdEncoding.EncodeToString([]byte("reader:pa55word"))
	kube := fake.NewSimpleClientset(&corev1.Secret{
		ObjectMeta: metav1.ObjectMeta{Name: "repo-creds", Namespace: "apps"},
		Data:       map[string][]byte{"authHeader": []byte(header + "\n"), "other": []byte("Bearer t0ken")},
	})
	host := &HostCluster{Settings: target.HostSettings{Configured: true}}
	host.once.Do(func() {})
	host.client = kube
	var secrets redact.Secrets
	a := &ComponentAccess{Host: host, Learn: secrets.Add}
	creds := `{auths: [
  {url: "https://a.example/charts", secretRef: {name: repo-creds}},
  {url: "https://b.example", secretRef: {name: repo-creds, key: other}, customCAData: "` + base64.StdEncoding.EncodeToString([]byte("-----BEGIN CERTIFICATE-----")) + `"},
  {url: "https://c.example", authHeader: "Bearer inline"},
  {url: "https://d.example", authHeader: "x", secretRef: {name: repo-creds}},
  {url: "https://e.example", secretRef: {name: missing}},
  {url: "https://f.example"}]}`
	a.scopes = map[string]*ComponentScope{"apps/default": {namespace: "apps", chartRepoCredentials: []byte(creds)}}
	access := ChartAccess{ComponentAccess: a, Ref: ContextRef{Namespace: "apps"}}
	ctx := context.Background()
	for u, want := range map[string]string{
		"https://a.example/charts/index.yaml": header,
		"https://b.example/x.tgz":             "Bearer t0ken",
		"https://c.example/x.tgz":             "Bearer inline",
		"https://z.example/x.tgz":             "",
	} {
		got, err := access.ChartRepoAuth(ctx, u)
		if err != nil || got.Header != want {
			t.Errorf("%s: %q, %v; want %q", u, got.Header, err, want)
		}
	}
	if got, _ := access.ChartRepoAuth(ctx, "https://b.example/x.tgz"); string(got.CAData) != "-----BEGIN CERTIFICATE-----" {
		t.Errorf("customCAData (base64) decoded to %q", got.CAData)
	}
	for u, want := range map[string]string{
		"https://d.example/x": "not both",
		"https://e.example/x": `secret apps/missing`,
		"https://f.example/x": "set authHeader or secretRef",
	} {
		if _, err := access.ChartRepoAuth(ctx, u); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", u, err, want)
		}
	}
	msg := secrets.String("failed with " + header + " and pa55word and t0ken")
	if strings.Contains(msg, "pa55word") || strings.Contains(msg, "t0ken") {
		t.Errorf("credentials read were not learnt as secrets: %s", msg)
	}
	// A malformed configuration is named, never quoted.
	a.scopes["apps/default"].chartRepoCredentials = []byte(`{auths: [{url: "https://a.example", authHeder: "Basic c2VjcmV0"}]}`)
	if _, err := access.ChartRepoAuth(ctx, "https://a.example/x"); err == nil || strings.Contains(err.Error(), "c2VjcmV0") ||
		!strings.Contains(err.Error(), "configurations.helmChartRepoCredentials") {
		t.Errorf("malformed configuration: %v", err)
	}
	// No Context, or none named and none as default: no credentials.
	for _, ref := range []ContextRef{{Namespace: "apps", None: true}, {Namespace: "other"}} {
		a.scopes["other/default"] = nil // read before: absent
		if got, err := (ChartAccess{ComponentAccess: a, Ref: ref}).ChartRepoAuth(ctx, "https://a.example/charts/x"); err != nil || got.Header != "" {
			t.Errorf("%+v: %q %v", ref, got.Header, err)
		}
	}
}
