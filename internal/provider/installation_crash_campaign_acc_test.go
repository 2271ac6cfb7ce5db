package provider

import (
	"context"
	"math/rand/v2"
	"os"
	"strconv"
	"syscall"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
)

const campaignRounds = 10

func (e *accEnv) campaignInstallation() string {
	return e.pathInstallation("crash", blueprintDir(e.t, "crash-campaign"), "")
}

// deployedCount is how many objects of the installation exist: ConfigMaps
// labeled by one of its deploy items, and Helm release revisions.
func (e *accEnv) deployedCount() (configMaps, releases int) {
	e.t.Helper()
	ctx := context.Background()
	cms, err := e.kube.CoreV1().ConfigMaps(e.namespace).List(ctx, metav1.ListOptions{LabelSelector: deployer.OwnerLabel})
	if err != nil {
		e.t.Fatal(err)
	}
	rels, err := e.kube.CoreV1().Secrets(e.namespace).List(ctx, metav1.ListOptions{LabelSelector: "owner=helm"})
	if err != nil {
		e.t.Fatal(err)
	}
	return len(cms.Items), len(rels.Items)
}

// killAfter starts an apply and kills the CLI and its provider with
// SIGKILL once the installation has deployed objects objects (0: after a
// random moment of its start-up), as a crash would.
func (e *accEnv) killAfter(w *cliWorkspace, objects int, rng *rand.Rand) {
	e.t.Helper()
	cmd, wait := w.start("apply", "-auto-approve", "-input=false")
	if objects == 0 {
		time.Sleep(time.Duration(rng.IntN(1500)) * time.Millisecond)
	} else {
		watcher, err := e.kube.CoreV1().ConfigMaps(e.namespace).Watch(context.Background(), metav1.ListOptions{LabelSelector: deployer.OwnerLabel})
		if err != nil {
			e.t.Fatal(err)
		}
		seen, timeout := map[string]bool{}, time.After(2*time.Minute)
	watch:
		for len(seen) < objects {
			select {
			case ev, ok := <-watcher.ResultChan():
				if !ok {
					break watch
				}
				if m, err := meta.Accessor(ev.Object); err == nil {
					seen[m.GetName()] = true
				}
			case <-timeout:
				break watch
			}
		}
		watcher.Stop()
	}
	if err := syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL); err != nil {
		_ = cmd.Process.Kill()
	}
	_, _ = wait()
}

// The crash campaign: ten times, the CLI and its provider are killed with
// SIGKILL at a random point of a 20-item apply (items one after another,
// a Helm release among them); then either (a) apply and destroy, or (b)
// the state is dropped, the installation imported, applied and destroyed.
// Every command after the kill must succeed, and nothing may be left:
// no object, no release, no inventory. LANDSCAPER_CAMPAIGN_SEED repeats a
// campaign.
func TestAccInstallation_crashCampaign(t *testing.T) {
	requireAcc(t)
	seed := uint64(time.Now().UnixNano())
	if s := os.Getenv("LANDSCAPER_CAMPAIGN_SEED"); s != "" {
		seed, _ = strconv.ParseUint(s, 10, 64)
	}
	t.Logf("campaign seed %d (LANDSCAPER_CAMPAIGN_SEED)", seed)
	rng := rand.New(rand.NewPCG(seed, seed))
	e := newAccEnv(t)
	addr := "landscaper_installation.crash"
	w := newCLIWorkspace(t, e.campaignInstallation())
	for round := range campaignRounds {
		objects := rng.IntN(20) // ConfigMaps deployed before the kill; 0: any moment
		viaImport := round%2 == 1
		t.Logf("round %d: kill after %d objects, then %s", round, objects, map[bool]string{false: "apply", true: "state rm + import + apply"}[viaImport])
		e.killAfter(w, objects, rng)
		if viaImport {
			if out, err := w.run("state", "rm", addr); err != nil {
				t.Logf("round %d: nothing to remove from state (%v): %s", round, err, out)
			}
			w.mustRun("import", "-input=false", addr, e.namespace+"/crash")
		}
		w.mustRun("apply", "-auto-approve", "-input=false")
		if cms, rels := e.deployedCount(); cms != 19 || rels == 0 {
			t.Fatalf("round %d: after the apply %d ConfigMaps and %d release revisions exist, want 19 and the release", round, cms, rels)
		}
		w.mustRun("destroy", "-auto-approve", "-input=false")
		if cms, rels := e.deployedCount(); cms != 0 || rels != 0 {
			t.Fatalf("round %d: destroy left %d ConfigMaps and %d release revisions", round, cms, rels)
		}
		if p := e.inventoryParent("crash"); p != nil {
			t.Fatalf("round %d: destroy left the inventory %s/%s", round, p.Namespace, p.Name)
		}
	}
}
