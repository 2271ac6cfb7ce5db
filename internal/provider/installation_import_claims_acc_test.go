package provider

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/inventory"
)

// rewriteRecord changes the record of the installation's inventory as
// someone who may write Secrets in its namespace could: edit changes each
// recorded item's configuration, and the signature is dropped (nobody
// else has the key; an import reads without it).
func (e *accEnv) rewriteRecord(resourceName string, edit func(config map[string]any)) {
	e.t.Helper()
	var rec inventory.Record
	if err := json.Unmarshal(e.inventoryRecord(resourceName), &rec); err != nil {
		e.t.Fatal(err)
	}
	for i, it := range rec.Items {
		var cfg map[string]any
		if err := json.Unmarshal(it.Config, &cfg); err != nil {
			e.t.Fatal(err)
		}
		edit(cfg)
		rec.Items[i].Config, _ = json.Marshal(cfg)
	}
	e.writeUnsignedRecord(resourceName, rec)
}

// writeUnsignedRecord puts rec into the installation's inventory parent
// as its record, compressed as the provider writes it, without a
// signature (nobody but the installation has the key).
func (e *accEnv) writeUnsignedRecord(resourceName string, rec inventory.Record) {
	e.t.Helper()
	p := e.inventoryParent(resourceName)
	raw, err := json.Marshal(rec)
	if err != nil {
		e.t.Fatal(err)
	}
	var zipped bytes.Buffer
	zw := gzip.NewWriter(&zipped)
	_, _ = zw.Write(raw)
	_ = zw.Close()
	p.Data["record"] = zipped.Bytes()
	delete(p.Data, "signature")
	if _, err := e.kube.CoreV1().Secrets(p.Namespace).Update(context.Background(), p, metav1.UpdateOptions{}); err != nil {
		e.t.Fatal(err)
	}
}

// Issue 32 (2): with the inventory's record rewritten — its signature
// dropped, each item's configuration given a deletion group that deletes
// every ConfigMap of another namespace (deleteAllResources) —
// `terraform import` and `terraform destroy` delete what the installation
// deployed and nothing else: what an import assembles from an inventory
// is rebuilt, and a rebuilt item's deleteAllResources is not followed.
// Before, the destroy exited 0 and deleted the unlabelled ConfigMap.
func TestAccInstallation_importedDeleteAllDeletesNothingForeign(t *testing.T) {
	requireAcc(t)
	e := newAccEnv(t).fromProviderEnv()
	victimNS := e.createVictim()
	const res = "claims"
	addr := "landscaper_installation." + res
	w := newCLIWorkspace(t, e.itemsInstallation(res, "a"))
	w.mustRun("apply", "-auto-approve", "-input=false")

	e.rewriteRecord(res, func(cfg map[string]any) {
		cfg["deletionGroups"] = []any{
			map[string]any{"predefinedResourceGroup": map[string]any{"type": "namespaced-resources"}},
			map[string]any{"customResourceGroup": map[string]any{"deleteAllResources": true,
				"resources": []any{map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "namespaces": []any{victimNS}}}}},
		}
	})
	w.mustRun("state", "rm", addr)
	w.mustRun("import", "-input=false", addr, e.namespace+"/"+res)
	_, _ = w.run("destroy", "-auto-approve", "-input=false") // whether it fails or not, the victim must survive
	e.victimSurvives(victimNS, "after import and destroy of a rewritten record")
}
