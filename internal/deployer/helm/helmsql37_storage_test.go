package helm_test

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"helm.sh/helm/v3/pkg/action"
	"helm.sh/helm/v3/pkg/chart"
	"helm.sh/helm/v3/pkg/release"
	"helm.sh/helm/v3/pkg/storage/driver"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/client-go/kubernetes"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer/helm"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/failure"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/target"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/testsupport/localcluster"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/testsupport/postgres"
)

// bigChart renders parts ConfigMaps of size bytes of incompressible data
// each, read from files of the chart: every ConfigMap stays below the API
// server's limits, the release's record (chart files plus manifest) is
// far above a Secret's 1 MiB.
func bigChart(t *testing.T, parts, size int) *chart.Chart {
	t.Helper()
	ch := testChart(t, nil, map[string]string{"parts.yaml": `{{- range $i, $_ := until (int .Values.parts) }}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: part-{{ $i }}}
data:
  data: {{ $.Files.Get (printf "files/part-%d.txt" $i) | quote }}
  revision: {{ $.Values.revision | quote }}
{{- end }}
`})
	for i := 0; i < parts; i++ {
		b := make([]byte, size*3/4)
		if _, err := rand.Read(b); err != nil {
			t.Fatal(err)
		}
		ch.Files = append(ch.Files, &chart.File{Name: fmt.Sprintf("files/part-%d.txt", i), Data: []byte(base64.StdEncoding.EncodeToString(b))})
	}
	return ch
}

func bigItem(t *testing.T, ns string, ch *chart.Chart, revision string) deployer.Item {
	return helmItem(t, "root/big", helmConfig(t, ns, rawChart(t, ch), map[string]any{"name": "big",
		"values": map[string]any{"parts": len(ch.Files), "revision": revision}}))
}

// helmSQL is the namespace's Helm storage as `helm` with HELM_DRIVER=sql
// and the connection string sees it.
func helmSQL(t *testing.T, namespace, conn string) *action.Configuration {
	t.Helper()
	t.Setenv(helm.SQLConnectionEnv, conn)
	flags := genericclioptions.NewConfigFlags(false)
	path := localcluster.KubeconfigPath(t)
	flags.KubeConfig, flags.Namespace = &path, &namespace
	cfg := new(action.Configuration)
	if err := cfg.Init(flags, namespace, "sql", func(string, ...any) {}); err != nil {
		t.Fatal(err)
	}
	return cfg
}

// releaseSecrets are the Helm release Secrets of a namespace.
func releaseSecrets(t *testing.T, kube kubernetes.Interface, ns string) []string {
	t.Helper()
	list, err := kube.CoreV1().Secrets(ns).List(context.Background(), metav1.ListOptions{LabelSelector: "owner=helm"})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, s := range list.Items {
		out = append(out, s.Name)
	}
	return out
}

func configMapNames(t *testing.T, kube kubernetes.Interface, ns string) []string {
	t.Helper()
	list, err := kube.CoreV1().ConfigMaps(ns).List(context.Background(), metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, c := range list.Items {
		if c.Name != "kube-root-ca.crt" {
			out = append(out, c.Name)
		}
	}
	return out
}

// TestStorage_SecretRefusesBigReleaseFirst: with Helm's Secret driver a
// release whose record a Secret cannot hold fails the preview (the plan)
// with deployer.ErrBeyondLimit, and the apply at once — terminal, before
// Helm creates anything: no object, no release record.
func TestStorage_SecretRefusesBigReleaseFirst(t *testing.T) {
	ns := localcluster.Namespace(t)
	kube := kubernetes.NewForConfigOrDie(localcluster.RESTConfig(t))
	ch := bigChart(t, 3, 400<<10)
	item := bigItem(t, ns, ch, "1")

	_, err := helm.New(nil).Preview(context.Background(), deployer.PreviewRequest{Item: item})
	if !errors.Is(err, deployer.ErrBeyondLimit) {
		t.Fatalf("Preview = %v, want an error wrapping ErrBeyondLimit", err)
	}
	for _, want := range []string{`installation "root"`, `deploy item "big"`, ns + "/big", "1048576 bytes", `driver = "sql"`} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("preview error %q does not say %q", err, want)
		}
	}

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	_, err = helm.New(target.NewPool()).Apply(ctx, item)
	if !errors.Is(err, deployer.ErrBeyondLimit) || !failure.IsTerminal(err) {
		t.Fatalf("Apply = %v (%s), want a terminal error wrapping ErrBeyondLimit", err, failure.KindOf(err))
	}
	if got := configMapNames(t, kube, ns); len(got) > 0 {
		t.Errorf("the refused apply created ConfigMaps %v", got)
	}
	if got := releaseSecrets(t, kube, ns); len(got) > 0 {
		t.Errorf("the refused apply recorded %v", got)
	}

	// A release that fits is measured and installed as before.
	small := bigItem(t, ns, bigChart(t, 1, 100<<10), "1")
	if _, err := helm.New(nil).Preview(context.Background(), deployer.PreviewRequest{Item: small}); err != nil {
		t.Fatalf("Preview of a release that fits: %v", err)
	}
	if _, err := helm.New(target.NewPool()).Apply(ctx, small); err != nil {
		t.Fatalf("Apply of a release that fits: %v", err)
	}
}

// TestStorage_SQL: with Helm's SQL driver the same release installs,
// upgrades, reads back without drift and uninstalls, its records in
// PostgreSQL where `helm` with the SQL driver finds them and none in
// Secrets; the planted-revision and ownership checks hold for SQL
// records too; a release the Secret driver keeps is not installed a
// second time; a connection error never shows the password.
func TestStorage_SQL(t *testing.T) {
	conn := postgres.Start(t)
	storage := helm.Storage{Driver: helm.DriverSQL, SQLConnection: conn}
	kube := kubernetes.NewForConfigOrDie(localcluster.RESTConfig(t))

	t.Run("lifecycle", func(t *testing.T) {
		ns := localcluster.Namespace(t)
		d := helm.New(target.NewPool()).WithStorage(storage)
		ch := bigChart(t, 3, 400<<10)
		item := bigItem(t, ns, ch, "1")
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
		defer cancel()
		if _, err := d.Preview(ctx, deployer.PreviewRequest{Item: item}); err != nil {
			t.Fatalf("Preview with the SQL driver: %v", err)
		}
		res, err := d.Apply(ctx, item)
		if err != nil {
			t.Fatalf("install: %v", err)
		}
		person := helmSQL(t, ns, conn)
		rel, err := person.Releases.Last("big")
		if err != nil || rel.Version != 1 || rel.Info.Status != release.StatusDeployed {
			t.Fatalf("helm with the SQL driver reads %v, %v; want revision 1 deployed", rel, err)
		}
		if rel.Labels[deployer.OwnerLabel] != deployer.OwnerValue(item.ID) {
			t.Errorf("the SQL record's labels are %v, want the owner label", rel.Labels)
		}
		if got := releaseSecrets(t, kube, ns); len(got) > 0 {
			t.Errorf("release Secrets %v next to the SQL record", got)
		}
		if got := configMapNames(t, kube, ns); len(got) != 3 {
			t.Errorf("ConfigMaps %v, want the 3 parts", got)
		}
		item.ProviderStatus = res.ProviderStatus
		if report, err := d.Drift(ctx, item); err != nil || report.Drifted {
			t.Errorf("Drift = %+v, %v; want no drift", report, err)
		}

		up := bigItem(t, ns, ch, "2")
		up.ProviderStatus = res.ProviderStatus
		res, err = d.Apply(ctx, up)
		if err != nil {
			t.Fatalf("upgrade: %v", err)
		}
		if rel, err = person.Releases.Last("big"); err != nil || rel.Version != 2 {
			t.Fatalf("after the upgrade helm reads %v, %v; want revision 2", rel, err)
		}
		if got := newClusterReader(t).configMapData(t, ns, "part-0")["revision"]; got != "2" {
			t.Errorf("part-0 has revision %q after the upgrade", got)
		}
		up.ProviderStatus = res.ProviderStatus
		if err := d.Delete(ctx, up, deployer.DeleteOptions{}); err != nil {
			t.Fatalf("uninstall: %v", err)
		}
		if _, err := person.Releases.Last("big"); !errors.Is(err, driver.ErrReleaseNotFound) {
			t.Errorf("after the uninstall helm reads %v, want no release", err)
		}
		if got := configMapNames(t, kube, ns); len(got) > 0 {
			t.Errorf("ConfigMaps %v left after the uninstall", got)
		}
	})

	t.Run("planted revision", func(t *testing.T) {
		ns := localcluster.Namespace(t)
		d := helm.New(target.NewPool()).WithStorage(storage)
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		foreign := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "someone-elses", Namespace: ns}, Data: map[string]string{"k": "v"}}
		if _, err := kube.CoreV1().ConfigMaps(ns).Create(ctx, foreign, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
		item := helmItem(t, "root/web", helmConfig(t, ns, rawChart(t, valuesChart(t, ns)), map[string]any{"name": "web", "values": map[string]any{"v": "a"}}))
		item.Instance = "instance-1"
		res, err := d.Apply(ctx, item)
		if err != nil {
			t.Fatal(err)
		}
		item.ProviderStatus = res.ProviderStatus
		// A release of another deploy item is refused as with Secrets.
		other := helmItem(t, "root/other", helmConfig(t, ns, rawChart(t, valuesChart(t, ns)), map[string]any{"name": "web", "values": map[string]any{"v": "b"}}))
		if _, err := d.Apply(ctx, other); err == nil || !strings.Contains(err.Error(), "belongs to another deploy item") {
			t.Errorf("apply of another item's release: err = %v, want a refusal", err)
		}
		person := helmSQL(t, ns, conn)
		prev := releaseAt(t, person, "web")
		planted := *prev
		planted.Info = &release.Info{Status: release.StatusDeployed}
		planted.Version++
		planted.Manifest += "\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: someone-elses\n  namespace: " + ns + "\n"
		planted.Labels = map[string]string{deployer.OwnerLabel: deployer.OwnerValue(item.ID), deployer.InstanceLabel: item.Instance}
		prev.Info.Status = release.StatusSuperseded
		if err := person.Releases.Update(prev); err != nil {
			t.Fatal(err)
		}
		if err := person.Releases.Create(&planted); err != nil {
			t.Fatal(err)
		}
		if _, err := d.Apply(ctx, item); err == nil || !strings.Contains(err.Error(), "someone-elses") {
			t.Errorf("apply over the planted revision: err = %v, want a refusal naming the ConfigMap", err)
		}
		if err := d.Delete(ctx, item, deployer.DeleteOptions{}); err == nil || !strings.Contains(err.Error(), "not the revision") {
			t.Errorf("destroy over the planted revision: err = %v, want a refusal", err)
		}
		if _, err := kube.CoreV1().ConfigMaps(ns).Get(ctx, "someone-elses", metav1.GetOptions{}); err != nil {
			t.Errorf("the foreign ConfigMap: %v", err)
		}
	})

	t.Run("release kept in Secrets", func(t *testing.T) {
		ns := localcluster.Namespace(t)
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		item := helmItem(t, "root/web", helmConfig(t, ns, rawChart(t, valuesChart(t, ns)), map[string]any{"name": "web", "values": map[string]any{"v": "a"}}))
		if _, err := helm.New(target.NewPool()).Apply(ctx, item); err != nil {
			t.Fatal(err)
		}
		_, err := helm.New(target.NewPool()).WithStorage(storage).Apply(ctx, item)
		if failure.Reason(err) != "ReleaseInOtherStorage" || !strings.Contains(err.Error(), "kept in Secrets") {
			t.Fatalf("SQL apply of a release the Secret driver keeps: %v", err)
		}
		if _, err := helmSQL(t, ns, conn).Releases.Last("web"); !errors.Is(err, driver.ErrReleaseNotFound) {
			t.Errorf("the SQL storage holds the release: %v", err)
		}
		if rel := releaseAt(t, helmStorage(t, ns), "web"); rel.Version != 1 {
			t.Errorf("the Secret record is at revision %d", rel.Version)
		}
	})

	t.Run("connection errors", func(t *testing.T) {
		ns := localcluster.Namespace(t)
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		for _, bad := range []string{
			"postgres://landscaper:s3cret-pw@127.0.0.1:1/db?sslmode=disable", // nothing listens
			"postgres://landscaper:s3cret-pw%zz@127.0.0.1/db",                // the URL parser quotes it
			"host=127.0.0.1 port=1 user=landscaper password=s3cret-pw sslmode=disable",
		} {
			d := helm.New(target.NewPool()).WithStorage(helm.Storage{Driver: helm.DriverSQL, SQLConnection: bad})
			item := helmItem(t, "root/web", helmConfig(t, ns, rawChart(t, valuesChart(t, ns)), map[string]any{"name": "web"}))
			_, err := d.Apply(ctx, item)
			if err == nil {
				t.Fatalf("%s: Apply succeeded", bad)
			}
			if strings.Contains(err.Error(), "s3cret-pw") {
				t.Errorf("the error shows the password: %v", err)
			}
		}
	})
}
