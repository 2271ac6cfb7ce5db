package engine

import (
	"context"
	"strings"
	"testing"
)

func TestRender_KnownAndUnknownItems(t *testing.T) {
	// items whose inputs are known are planned; items depending on exports known only after apply are unknown, not errors
	comp := componentBlueprint("")
	spec := rootSpec(t, treeBlueprint("", subinstallation("db", comp, "prefix", "dbOut"), subinstallation("web", comp, "dbOut", "final")))
	plan, err := Render(context.Background(), spec, nil)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, it := range plan.Items {
		ids = append(ids, it.ID)
		if it.ConfigHash == "" || it.Type == "" {
			t.Errorf("item %s lacks hash or type", it.ID)
		}
	}
	if got := strings.Join(ids, ","); got != "root/base,root/db/app" {
		t.Errorf("planned %s", got)
	}
	if len(plan.Unknown) != 1 || plan.Unknown[0].Path != "root/web" || !strings.Contains(plan.Unknown[0].Reason, `"db"`) {
		t.Errorf("unknown %+v", plan.Unknown)
	}
}

func TestRender_RenderTimeErrors(t *testing.T) {
	// duplicate names, unknown dependsOn and cycles are rejected at render time, naming the installation and the cycle
	tests := []struct {
		name, items, want string
	}{
		{"DuplicateName", "- {name: a, type: landscaper.gardener.cloud/mock}\n- {name: a, type: landscaper.gardener.cloud/mock}", `deploy item "a": duplicate name`},
		{"UnknownDependsOn", "- {name: a, type: landscaper.gardener.cloud/mock, dependsOn: [zz]}", `dependsOn "zz"`},
		{"Cycle", "- {name: a, type: landscaper.gardener.cloud/mock, dependsOn: [c]}\n- {name: b, type: landscaper.gardener.cloud/mock, dependsOn: [a]}\n- {name: c, type: landscaper.gardener.cloud/mock, dependsOn: [b]}", "a -> c -> b -> a"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sub := `apiVersion: landscaper.gardener.cloud/v1alpha1
kind: Blueprint
deployExecutions:
- name: main
  type: GoTemplate
  template: |
    deployItems:
` + indent(tt.items, "    ") + "\n"
			spec := rootSpec(t, treeBlueprint("", `- apiVersion: landscaper.gardener.cloud/v1alpha1
  kind: InstallationTemplate
  name: bad
  blueprint:
    filesystem:
      blueprint.yaml: `+quoteYAML(sub)+"\n"))
			_, err := Render(context.Background(), spec, nil)
			if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), "root/bad") {
				t.Fatalf("error %v should contain %q and name root/bad", err, tt.want)
			}
			e, m, _ := newEngine()
			if _, err := e.Apply(context.Background(), spec, nil); err == nil || len(m.Events()) != 0 {
				t.Errorf("apply must fail before deploying anything: %v, %d calls", err, len(m.Events()))
			}
		})
	}
}

func quoteYAML(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`).Replace(s) + `"`
}
