package engine

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer/mock"
)

// secretKubeconfig must never appear in logs or errors.
const secretKubeconfig = "apiVersion: v1\nkind: Config\n# SECRET-TOKEN-4711\n"

// componentBlueprint imports a cluster and a string `in`, deploys one mock
// item "app" whose export is `value: <in>-x` (plus extra mock config),
// and exports `out` from it. It is instantiated more than once per tree.
func componentBlueprint(extraConfig string) string {
	return `apiVersion: landscaper.gardener.cloud/v1alpha1
kind: Blueprint
imports:
- name: cluster
  targetType: landscaper.gardener.cloud/kubernetes-cluster
- name: in
  schema: {type: string}
exports:
- name: out
  schema: {type: string}
deployExecutions:
- name: main
  type: GoTemplate
  template: |
    deployItems:
    - name: app
      type: landscaper.gardener.cloud/mock
      target: {import: cluster}
      config:
        export: {value: "{{ .imports.in }}-x"}
` + indent(extraConfig, "        ") + `
exportExecutions:
- name: exp
  type: GoTemplate
  template: |
    exports:
      out: {{ .deployitems.app.value | quote }}
`
}

// subinstallation returns an inline InstallationTemplate entry.
func subinstallation(name, bp, in, out string) string {
	return fmt.Sprintf(`- apiVersion: landscaper.gardener.cloud/v1alpha1
  kind: InstallationTemplate
  name: %s
  blueprint:
    filesystem:
      blueprint.yaml: %q
  imports:
    data: [{name: in, dataRef: %s}]
    targets: [{name: cluster, target: cluster}]
  exports:
    data: [{name: out, dataRef: %s}]
`, name, bp, in, out)
}

// treeBlueprint is a root with its own item "base" and the subinstallations
// given; it exports `url` from the data object `final` of its scope.
func treeBlueprint(baseConfig string, subs ...string) string {
	return `apiVersion: landscaper.gardener.cloud/v1alpha1
kind: Blueprint
imports:
- name: cluster
  targetType: landscaper.gardener.cloud/kubernetes-cluster
- name: prefix
  schema: {type: string}
exports:
- name: url
  schema: {type: string}
deployExecutions:
- name: main
  type: GoTemplate
  template: |
    deployItems:
    - name: base
      type: landscaper.gardener.cloud/mock
      target: {import: cluster}
      config:
        export: {host: "{{ .imports.prefix }}"}
` + indent(baseConfig, "        ") + `
exportExecutions:
- name: exp
  type: GoTemplate
  template: |
    exports:
      url: {{ default "none" .dataobjects.final | quote }}
subinstallations:
` + strings.Join(subs, "")
}

func indent(s, prefix string) string {
	if s == "" {
		return ""
	}
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return prefix + strings.Join(lines, "\n"+prefix)
}

func loadBlueprint(t testing.TB, yaml string) *blueprint.Blueprint {
	t.Helper()
	return loadBlueprintFiles(t, map[string]string{"blueprint.yaml": yaml})
}

func loadBlueprintFiles(t testing.TB, files map[string]string) *blueprint.Blueprint {
	t.Helper()
	fsys := fstest.MapFS{}
	for name, content := range files {
		fsys[name] = &fstest.MapFile{Data: []byte(content)}
	}
	bp, err := blueprint.Load(fsys)
	if err != nil {
		t.Fatalf("loading blueprint: %v\n%s", err, files["blueprint.yaml"])
	}
	return bp
}

func rootSpec(t testing.TB, yaml string) RootSpec {
	return RootSpec{
		Name:      "root",
		Blueprint: loadBlueprint(t, yaml),
		Imports: blueprint.Imports{
			Data: map[string]any{"prefix": "p"},
			Targets: map[string]api.Target{"cluster": api.NewTarget("cluster", "", api.KubernetesClusterTargetType,
				mustJSON(api.KubernetesClusterConfig{Kubeconfig: secretKubeconfig}))},
		},
	}
}

func mustJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

// recordingLog keeps every log line, to check what is (not) logged.
type recordingLog struct {
	mu    sync.Mutex
	lines []string
}

func (l *recordingLog) Info(msg string, kv ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.lines = append(l.lines, fmt.Sprint(append([]any{msg}, kv...)...))
}

func (l *recordingLog) text() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return strings.Join(l.lines, "\n")
}

func newEngine() (*Engine, *mock.Deployer, *recordingLog) {
	m := mock.New()
	reg := deployer.NewRegistry()
	reg.Register(mock.Type, m)
	log := &recordingLog{}
	return &Engine{Deployers: reg, Parallelism: 10, Log: log, AbortTimeout: 50 * time.Millisecond,
		Backoff: Backoff{Base: time.Millisecond, Cap: 5 * time.Millisecond, MaxRetries: 5}}, m, log
}
