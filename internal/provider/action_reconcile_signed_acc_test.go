package provider

import (
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/types"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/inventory"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/provider/shared"
)

// inventorySecret is the namespace and name of installation app's
// inventory Secret (in its target kubeconfig's namespace).
func (e *accEnv) inventorySecret() (string, string) {
	e.t.Helper()
	name := inventory.ParentName(shared.RootName(shared.InstallationModel{Name: types.StringValue("app"), Namespace: types.StringValue(e.namespace)}))
	l, err := e.kube.CoreV1().Secrets("").List(context.Background(), metav1.ListOptions{FieldSelector: "metadata.name=" + name})
	if err != nil || len(l.Items) != 1 {
		e.t.Fatalf("the installation's inventory Secret %s: %v (%d found)", name, err, len(l.Items))
	}
	return l.Items[0].Namespace, name
}

// alterInventory rewrites the record of installation app's inventory
// Secret with edit, as someone who may write Secrets in the namespace
// could, keeping the Secret's signature (or, with unsign, dropping it);
// it returns the Secret's resourceVersion after the change and a func
// that puts the original back.
func (e *accEnv) alterInventory(edit func([]byte) []byte, unsign bool) (string, func()) {
	e.t.Helper()
	ctx := context.Background()
	namespace, name := e.inventorySecret()
	secrets := e.kube.CoreV1().Secrets(namespace)
	s, err := secrets.Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		e.t.Fatalf("the installation's inventory Secret: %v", err)
	}
	original := s.DeepCopy()
	zr, err := gzip.NewReader(bytes.NewReader(s.Data["record"]))
	if err != nil {
		e.t.Fatal(err)
	}
	raw, err := io.ReadAll(zr)
	if err != nil {
		e.t.Fatal(err)
	}
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	_, _ = zw.Write(edit(raw))
	_ = zw.Close()
	s.Data["record"] = buf.Bytes()
	if unsign {
		delete(s.Data, "signature")
	}
	s, err = secrets.Update(ctx, s, metav1.UpdateOptions{})
	if err != nil {
		e.t.Fatal(err)
	}
	return s.ResourceVersion, func() {
		e.t.Helper()
		cur, err := secrets.Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			e.t.Fatal(err)
		}
		original.ResourceVersion = cur.ResourceVersion
		if _, err := secrets.Update(ctx, original, metav1.UpdateOptions{}); err != nil {
			e.t.Fatal(err)
		}
	}
}

// landscaper_reconcile applies only inventory records the installation
// signed: a record altered in the cluster between the apply and the
// invoke (a ConfigMap's data changed, the signature kept), or stripped of
// its signature, is refused with an error naming the Secret, and nothing
// changes — neither the object nor the Secret. With the record put back,
// the same invoke works.
func TestAccReconcileActionSignedRecords(t *testing.T) {
	requireAcc(t)
	skipWithoutActions(t)
	e := newAccEnv(t)
	w := newCLIWorkspace(t, e.reconcileConfig("1"))
	w.mustRun("init", "-input=false", "-plugin-dir="+providerMirror(t))
	w.mustRun("apply", "-input=false", "-auto-approve")
	present := e.configMapData("reconciled", map[string]string{"a": "b"})
	secretNamespace, secretName := e.inventorySecret()

	for _, unsign := range []bool{false, true} {
		version, restore := e.alterInventory(func(raw []byte) []byte {
			if !bytes.Contains(raw, []byte(`a: b`)) && !bytes.Contains(raw, []byte(`"a":"b"`)) {
				t.Fatalf("the record does not hold the ConfigMap's data: %s", raw)
			}
			raw = bytes.ReplaceAll(raw, []byte(`a: b`), []byte(`a: planted`))
			return bytes.ReplaceAll(raw, []byte(`"a":"b"`), []byte(`"a":"planted"`))
		}, unsign)
		out, err := w.run("apply", "-input=false", "-auto-approve", "-no-color", "-invoke=action.landscaper_reconcile.now")
		t.Logf("apply -invoke of an altered record (unsigned=%v):\n%s", unsign, out)
		want := "signature does not match"
		if unsign {
			want = "not signed"
		}
		if err == nil || !strings.Contains(out, want) || !strings.Contains(out, secretNamespace+"/"+secretName) {
			t.Errorf("unsigned=%v: the action did not refuse the record naming the Secret (err=%v)", unsign, err)
		}
		if err := present(nil); err != nil {
			t.Errorf("unsigned=%v: the refused reconcile changed the ConfigMap: %v", unsign, err)
		}
		s, err := e.kube.CoreV1().Secrets(secretNamespace).Get(context.Background(), secretName, metav1.GetOptions{})
		if err != nil || s.ResourceVersion != version {
			t.Errorf("unsigned=%v: the refused reconcile wrote the inventory (%v)", unsign, err)
		}
		restore()
	}

	e.deleteConfigMap("reconciled")
	w.mustRun("apply", "-input=false", "-auto-approve", "-invoke=action.landscaper_reconcile.now")
	if err := present(nil); err != nil {
		t.Fatalf("the reconcile of the restored record did not put the ConfigMap back: %v", err)
	}
	if out, err := w.run("plan", "-input=false", "-detailed-exitcode"); err != nil {
		t.Fatalf("plan after the reconcile is not empty (%v):\n%s", err, out)
	}
	w.mustRun("destroy", "-input=false", "-auto-approve")
}
