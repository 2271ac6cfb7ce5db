package preview_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"helm.sh/helm/v3/pkg/chart"
	"helm.sh/helm/v3/pkg/chartutil"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer/helm"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/preview"
)

const webTemplates = `apiVersion: v1
kind: ConfigMap
metadata:
  name: {{ .Release.Name }}
data:
  greeting: {{ .Values.greeting | quote }}
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: {{ .Release.Name }}
spec:
  replicas: 2
  template:
    spec:
      containers:
        - name: web
          image: "nginx:{{ .Chart.AppVersion }}"
---
apiVersion: v1
kind: Secret
metadata:
  name: {{ .Release.Name }}-db
stringData:
  password: {{ .Values.password | quote }}
`

// packaged returns a chart archive, packaged with the Helm SDK as a
// chart repository would serve it.
func packaged(t *testing.T, version, appVersion, templates string) string {
	t.Helper()
	ch := &chart.Chart{
		Metadata:  &chart.Metadata{APIVersion: chart.APIVersionV2, Name: "web", Version: version, AppVersion: appVersion},
		Templates: []*chart.File{{Name: "templates/all.yaml", Data: []byte(templates)}},
	}
	path, err := chartutil.Save(ch, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Clean(path))
	if err != nil {
		t.Fatal(err)
	}
	return base64.StdEncoding.EncodeToString(b)
}

// helmText is what a plan shows of a Helm item: previewed by the Helm
// deployer without a cluster, rendered and masked by this package, with
// the Secret import "password" registered as sensitive.
func helmText(t *testing.T, marks *preview.Marks, archive string, values map[string]any) map[string]string {
	t.Helper()
	config, err := json.Marshal(map[string]any{"name": "web", "namespace": "shop",
		"chart": map[string]any{"archive": map[string]any{"raw": archive}}, "values": values})
	if err != nil {
		t.Fatal(err)
	}
	p, err := helm.New(nil).Preview(context.Background(), deployer.PreviewRequest{Item: deployer.Item{ID: "shop/web", Name: "web", Type: helm.Type, Config: config}})
	if err != nil {
		t.Fatal(err)
	}
	var s preview.Sensitive
	s.AddValue(values["password"])
	texts, err := preview.NewRenderer(marks, &s).Item("shop/web", p.Objects)
	if err != nil {
		t.Fatal(err)
	}
	return texts
}

// changedLines are the lines of after's object key that differ from
// before's (same line count assumed: a field's value changed).
func changedLines(t *testing.T, before, after map[string]string, key string) []string {
	t.Helper()
	a, b := strings.Split(before[key], "\n"), strings.Split(after[key], "\n")
	if len(a) != len(b) {
		t.Fatalf("%s: line counts %d and %d", key, len(a), len(b))
	}
	var out []string
	for i := range a {
		if a[i] != b[i] {
			out = append(out, strings.TrimSpace(a[i])+" → "+strings.TrimSpace(b[i]))
		}
	}
	return out
}

// TestHelm_ValuesAndChartChanges: a values change shows as the one field
// it changes; a new chart version as the objects it changes and adds; a
// changed secret value as a new marker, never the value.
func TestHelm_ValuesAndChartChanges(t *testing.T) {
	key := []byte("0123456789abcdef0123456789abcdef")
	v1 := packaged(t, "0.1.0", "1.27", webTemplates)
	values := map[string]any{"greeting": "hello", "password": "s3cret-one"}
	marks := preview.NewMarks(key, nil, nil)
	applied := helmText(t, marks, v1, values)
	recorded := marks.Table()

	// Values: one changed line.
	changed := helmText(t, preview.NewMarks(key, recorded, nil), v1, map[string]any{"greeting": "hi", "password": "s3cret-one"})
	c := preview.Compare(applied, changed)
	if want := []string{"shop/web: v1 ConfigMap web"}; !reflect.DeepEqual(c.Changed, want) || len(c.Added)+len(c.Removed) > 0 {
		t.Errorf("values change: %+v", c)
	}
	if got := changedLines(t, applied, changed, "shop/web: v1 ConfigMap web"); !reflect.DeepEqual(got, []string{"greeting: hello → greeting: hi"}) {
		t.Errorf("changed lines = %q", got)
	}

	// Chart version: a new image and a new Service.
	v2 := packaged(t, "0.2.0", "1.28", webTemplates+"---\napiVersion: v1\nkind: Service\nmetadata:\n  name: web\nspec:\n  ports:\n    - port: 80\n")
	upgraded := helmText(t, preview.NewMarks(key, recorded, nil), v2, values)
	c = preview.Compare(applied, upgraded)
	if !reflect.DeepEqual(c.Added, []string{"shop/web: v1 Service web"}) || !reflect.DeepEqual(c.Changed, []string{"shop/web: apps/v1 Deployment web"}) {
		t.Errorf("chart change: %+v", c)
	}
	if got := changedLines(t, applied, upgraded, "shop/web: apps/v1 Deployment web"); !reflect.DeepEqual(got, []string{"image: nginx:1.27 → image: nginx:1.28"}) {
		t.Errorf("changed lines = %q", got)
	}

	// A secret value: its marker changes, the value shows nowhere.
	rotated := helmText(t, preview.NewMarks(key, recorded, nil), v1, map[string]any{"greeting": "hello", "password": "s3cret-two"})
	secretKey := "shop/web: v1 Secret web-db"
	if got := changedLines(t, applied, rotated, secretKey); !reflect.DeepEqual(got, []string{"password: (sensitive value v1) → password: (sensitive value v2)"}) {
		t.Errorf("changed lines = %q", got)
	}
	all := preview.Join("", applied) + preview.Join("", rotated)
	for _, v := range []string{"s3cret-one", "s3cret-two", base64.StdEncoding.EncodeToString([]byte("s3cret-one"))} {
		if strings.Contains(all, v) {
			t.Errorf("%q appears in the text", v)
		}
	}
}
