package engine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine/snapshot"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/failure"
)

// fileDeployer deploys the content of the blueprint file its config names,
// as a deployer with a local chart (`chart.path`) does: every call needs
// the files of the blueprint that rendered the item.
// Items run concurrently, so the record of what is deployed has a lock.
type fileDeployer struct {
	mu       sync.Mutex
	deployed map[string]string
}

func (d *fileDeployer) get(id string) string {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.deployed[id]
}

func (d *fileDeployer) set(id, content string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.deployed[id] = content
}

const fileType = "example.com/file"

func (d *fileDeployer) read(item deployer.Item) (string, error) {
	var cfg struct{ File string }
	if err := json.Unmarshal(item.Config, &cfg); err != nil {
		return "", err
	}
	if item.Files == nil {
		return "", errors.New("no blueprint files")
	}
	b, err := fs.ReadFile(item.Files, cfg.File)
	return string(b), err
}

func (d *fileDeployer) Apply(_ context.Context, item deployer.Item) (deployer.Result, error) {
	content, err := d.read(item)
	if err != nil {
		return deployer.Result{}, err
	}
	d.set(item.ID, content)
	return deployer.Result{ProviderStatus: json.RawMessage(`{}`)}, nil
}

func (d *fileDeployer) Delete(_ context.Context, item deployer.Item, _ deployer.DeleteOptions) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	delete(d.deployed, item.ID)
	return nil
}

func (d *fileDeployer) Validate(config json.RawMessage) error {
	var cfg struct{ File string }
	return json.Unmarshal(config, &cfg)
}

func (d *fileDeployer) Drift(_ context.Context, item deployer.Item) (deployer.DriftReport, error) {
	content, err := d.read(item)
	if err != nil {
		return deployer.DriftReport{}, err
	}
	if d.get(item.ID) != content {
		return deployer.DriftReport{Drifted: true, Reason: "content differs"}, nil
	}
	return deployer.DriftReport{}, nil
}

// fileBlueprint deploys its own file.txt and, with sub, a subinstallation
// whose inline blueprint deploys that blueprint's file.txt.
func fileBlueprint(content, sub string) string {
	bp := itemsBlueprint("- {name: file, type: " + fileType + ", config: {file: file.txt}}")
	if sub == "" {
		return bp
	}
	return bp + fmt.Sprintf(`subinstallations:
- apiVersion: landscaper.gardener.cloud/v1alpha1
  kind: InstallationTemplate
  name: sub
  blueprint:
    filesystem:
      blueprint.yaml: %q
      file.txt: %q
`, fileBlueprint("", ""), sub)
}

func TestDrift_DeployersGetTheBlueprintFiles(t *testing.T) {
	// drift hands each deployer the files of the blueprint that rendered its item, as apply does (root and subinstallation)
	e, _, _ := newEngine()
	files := &fileDeployer{deployed: map[string]string{}}
	e.Deployers.Register(fileType, files)
	spec := RootSpec{Name: "root", Blueprint: loadBlueprintFiles(t, map[string]string{
		"blueprint.yaml": fileBlueprint("", "sub content"), "file.txt": "root content"})}
	snap, err := e.Apply(context.Background(), spec, nil)
	if err != nil {
		t.Fatal(err)
	}
	if files.get("root/file") != "root content" || files.get("root/sub/file") != "sub content" {
		t.Fatalf("deployed %v", files.deployed)
	}
	b, err := snapshot.Marshal(snap)
	if err != nil {
		t.Fatal(err)
	}
	if snap, err = snapshot.Unmarshal(b); err != nil {
		t.Fatal(err)
	}
	drifted, err := e.Drift(context.Background(), snap, spec.Blueprint, nil)
	if err != nil || len(drifted) != 0 {
		t.Fatalf("drift: %v %+v", err, drifted)
	}
	files.set("root/sub/file", "changed behind the engine's back")
	drifted, err = e.Drift(context.Background(), snap, spec.Blueprint, nil)
	if err != nil || len(drifted) != 1 || drifted[0].ID != "root/sub/file" {
		t.Fatalf("drift: %v %+v", err, drifted)
	}
}

// stubborn ignores its context, as a deployer must not. It says on
// started when its call began.
type stubborn struct {
	deployer.Deployer
	started chan struct{}
}

func (s stubborn) Apply(context.Context, deployer.Item) (deployer.Result, error) {
	close(s.started)
	time.Sleep(10 * time.Second)
	return deployer.Result{}, nil
}

func TestApply_GraceCountsOnceAfterInterrupt(t *testing.T) {
	// after an interrupt a call that ignores its context is given up once Engine.AbortTimeout is over, not after twice that
	e, m, _ := newEngine()
	e.AbortTimeout = 2 * time.Second
	started := make(chan struct{})
	e.Deployers.Register("example.com/stubborn", stubborn{m, started})
	spec := RootSpec{Name: "root", Blueprint: loadBlueprint(t, itemsBlueprint("- {name: a, type: example.com/stubborn}"))}
	// The interrupt comes once the call runs, however long rendering
	// took on a busy machine.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var interrupted time.Time
	go func() {
		<-started
		interrupted = time.Now()
		cancel()
	}()
	snap, err := e.Apply(ctx, spec, nil)
	took := time.Since(interrupted)
	if err == nil {
		t.Fatal("no error")
	}
	// One abort timeout is 2 s, twice would be 4 s: the bound sits between them.
	if took > 3*time.Second {
		t.Errorf("apply returned %s after the interrupt: the call ran past the abort timeout of %s", took, e.AbortTimeout)
	}
	if len(snap.DeployItems()) != 1 {
		t.Fatalf("snapshot has %d deploy items, want the interrupted one", len(snap.DeployItems()))
	}
	if it := snap.DeployItems()[0]; it.Phase != api.DeployItemPhaseFailed || it.LastError.Reason != failure.ReasonInterrupted ||
		!strings.Contains(it.LastError.Message, "did not return within") {
		t.Errorf("item %s %+v", it.Phase, it.LastError)
	}
}

// panicky panics in every call, as a broken deployer might.
type panicky struct{ deployer.Deployer }

func (panicky) Apply(context.Context, deployer.Item) (deployer.Result, error) { panic("boom") }
func (panicky) Drift(context.Context, deployer.Item) (deployer.DriftReport, error) {
	panic("boom")
}

func TestApply_PanickingDeployerFailsItsItem(t *testing.T) {
	// a deployer that panics fails its own item; the job goes on, returns its snapshot, and drift reports an error instead of crashing
	e, m, _ := newEngine()
	e.Deployers.Register("example.com/panicky", panicky{m})
	spec := RootSpec{Name: "root", Blueprint: loadBlueprint(t, itemsBlueprint(
		"- {name: ok, type: landscaper.gardener.cloud/mock}\n- {name: boom, type: example.com/panicky}"))}
	snap, err := e.Apply(context.Background(), spec, nil)
	if err == nil || !strings.Contains(err.Error(), "panicked: boom") {
		t.Fatalf("error %v", err)
	}
	checkFinished(t, snap)
	items := map[string]*snapshot.DeployItem{}
	for _, it := range snap.DeployItems() {
		items[it.Name] = it
	}
	if it := items["boom"]; it == nil || it.Phase != api.DeployItemPhaseFailed || it.LastError.Reason != "Panic" {
		t.Errorf("boom: %+v", it)
	}
	if it := items["ok"]; it == nil || it.Phase != api.DeployItemPhaseSucceeded || len(it.ProviderStatus) == 0 {
		t.Errorf("ok must be deployed and recorded: %+v", it)
	}
	items["boom"].Phase = api.DeployItemPhaseSucceeded // so Drift asks its deployer
	if _, err := e.Drift(context.Background(), snap, spec.Blueprint, nil); err == nil || !strings.Contains(err.Error(), "panicked") {
		t.Errorf("drift: %v", err)
	}
}

// itemsBlueprint is a blueprint whose one deploy execution renders items
// (YAML list lines).
func itemsBlueprint(items string) string {
	return `apiVersion: landscaper.gardener.cloud/v1alpha1
kind: Blueprint
deployExecutions:
- name: main
  type: GoTemplate
  template: |
    deployItems:
` + indent(items, "    ") + "\n"
}
