package helm_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"helm.sh/helm/v3/pkg/action"
	"helm.sh/helm/v3/pkg/release"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
)

// TestRelease_RebuiltRevisionProvesNothing: a status in state that
// records a release without labels at its current revision (one adopted
// from Landscaper) lets Delete uninstall it; the same status rebuilt from
// the inventory, which whoever may write Secrets in the target namespace
// could have planted with a guessed revision, does not: a release a
// person installed survives, and the destroy reports it left behind.
func TestRelease_RebuiltRevisionProvesNothing(t *testing.T) {
	ns, ch, storage, d := ownershipFixture(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	install := action.NewInstall(storage)
	install.ReleaseName, install.Namespace = "by-hand", ns
	if _, err := install.Run(ch, map[string]any{"v": "person"}); err != nil {
		t.Fatal(err)
	}
	for _, rebuilt := range []bool{true, false} {
		item := helmItem(t, "planted", helmConfig(t, ns, rawChart(t, ch), map[string]any{"name": "by-hand", "values": map[string]any{"v": "x"}}))
		item.ProviderStatus = []byte(fmt.Sprintf(`{"apiVersion":"helm.deployer.landscaper.gardener.cloud/v1alpha1","kind":"ProviderStatus","managedResources":[],"release":{"name":"by-hand","namespace":%q,"revision":1}}`, ns))
		item.Rebuilt = rebuilt
		err := d.Delete(ctx, item, deployer.DeleteOptions{})
		// Rebuilt: the release is left and the destroy says so (the
		// record may be this item's own after a lost state).
		if wantErr := rebuilt; (err != nil) != wantErr || (err != nil && !strings.Contains(err.Error(), "a record rebuilt from the inventory does not prove it")) {
			t.Fatalf("Delete (rebuilt %v): %v", rebuilt, err)
		}
		_, err = storage.Releases.Last("by-hand")
		if uninstalled := err != nil; uninstalled == rebuilt {
			t.Fatalf("rebuilt %v: release uninstalled = %v", rebuilt, uninstalled)
		}
		if rebuilt && releaseAt(t, storage, "by-hand").Info.Status != release.StatusDeployed {
			t.Fatal("the person's release changed")
		}
	}
}
