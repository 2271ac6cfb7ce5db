package landscaperyaml

import (
	"strings"
	"testing"
)

// minimal is an Installation with an inline blueprint and nothing else;
// cases append fields to it.
const minimal = `apiVersion: landscaper.gardener.cloud/v1alpha1
kind: Installation
metadata:
  name: app
spec:
  blueprint:
    inline:
      filesystem:
        blueprint.yaml: |
          apiVersion: landscaper.gardener.cloud/v1alpha1
          kind: Blueprint
`

func withSpec(extra string) string { return minimal + extra }

func withAnnotation(k, v string) string {
	return strings.Replace(minimal, "  name: app\n", "  name: app\n  annotations:\n    "+k+": "+v+"\n", 1)
}

// Whatever cannot be honoured fails, naming the document and the field.
func TestConvert_Errors(t *testing.T) {
	objects := environment + `---
apiVersion: landscaper.gardener.cloud/v1alpha1
kind: Target
metadata: {name: from-secret}
spec: {type: landscaper.gardener.cloud/kubernetes-cluster, secretRef: {name: kc}}
---
apiVersion: landscaper.gardener.cloud/v1alpha1
kind: Context
metadata: {name: bare}
---
apiVersion: landscaper.gardener.cloud/v1alpha1
kind: Target
metadata: {name: self}
spec: {type: landscaper.gardener.cloud/kubernetes-cluster, config: {selfConfig: {serviceAccount: {name: sa}}}}
`
	for name, c := range map[string]struct{ manifest, want string }{
		"unknown field":         {withSpec("  automaticReconcil: {}\n"), `Installation "app" (manifest, document 1): spec.automaticReconcil: unknown field`},
		"unknown nested field":  {withSpec("  imports:\n    data:\n    - {name: a, dataRef: b, secret: c}\n"), "spec.imports.data[0].secret: unknown field"},
		"interrupt":             {withAnnotation(OperationAnnotation, "interrupt"), "metadata.annotations[landscaper.gardener.cloud/operation]: \"interrupt\" cannot be applied from a manifest"},
		"unknown operation":     {withAnnotation(OperationAnnotation, "abort"), `operation "abort" is not supported`},
		"unknown annotation":    {withAnnotation("landscaper.gardener.cloud/ignore", `"true"`), "metadata.annotations[landscaper.gardener.cloud/ignore]: this Landscaper annotation is not supported"},
		"bad delete annotation": {withAnnotation(DeleteWithoutUninstallAnnotation, "maybe"), `must be "true" or "false"`},
		"missing data object":   {withSpec("  imports:\n    data:\n    - {name: a, dataRef: nowhere}\n"), `spec.imports.data[0].dataRef: no DataObject "nowhere" in namespace "default"`},
		"two data sources":      {withSpec("  imports:\n    data:\n    - {name: a, dataRef: target-namespace, secretRef: {name: s}}\n"), "spec.imports.data[0]: needs exactly one of dataRef"},
		"duplicate import":      {withSpec("  imports:\n    data:\n    - {name: a, dataRef: target-namespace}\n    targets:\n    - {name: a, target: local-cluster}\n"), `spec.imports.targets[0].name: "a" is imported twice`},
		"target from secret":    {withSpec("  imports:\n    targets:\n    - {name: c, target: from-secret}\n"), `Target "from-secret" (manifest_objects, document 3): spec.secretRef: Targets whose config is in a Secret are not supported`},
		"self target":           {withSpec("  imports:\n    targets:\n    - {name: c, target: self}\n"), `Target "self" (manifest_objects, document 5): target "self": config.selfConfig is not supported`},
		"target list ref":       {withSpec("  imports:\n    targets:\n    - {name: c, targetListRef: list}\n"), "spec.imports.targets[0].targetListRef: refers to a parent installation's import"},
		"missing target":        {withSpec("  imports:\n    targets:\n    - {name: c, targets: [local-cluster, other]}\n"), `spec.imports.targets[0].targets[1]: no Target "other"`},
		"verification":          {withSpec("  verification: {signatureName: x}\n"), "spec.verification: component signature verification is not supported"},
		"no repository context": {withSpec("  context: bare\n  componentDescriptor:\n    ref: {componentName: example.com/a, version: v1}\n"), `spec.componentDescriptor.ref.repositoryContext: is missing, and Context "bare" (manifest_objects) gives none`},
		"ref without component": {strings.Replace(minimal, "    inline:\n      filesystem:\n        blueprint.yaml: |\n          apiVersion: landscaper.gardener.cloud/v1alpha1\n          kind: Blueprint\n", "    ref: {resourceName: bp}\n", 1), "spec.blueprint.ref: a blueprint resource needs spec.componentDescriptor"},
		"name mismatch":         {strings.Replace(minimal, "name: app", "name: other", 1), `metadata.name: is "other", but the resource's name is "app"`},
		"namespace mismatch":    {strings.Replace(minimal, "  name: app\n", "  name: app\n  namespace: prod\n", 1), `metadata.namespace: is "prod", but the resource's namespace is "default"`},
		"two documents":         {minimal + "---\n" + environment, "manifest must hold exactly one document, an Installation; it holds Installation"},
		"not an installation":   {environment, "manifest must hold exactly one document"},
		"wrong api version":     {strings.Replace(minimal, "v1alpha1\nkind: Installation", "v1\nkind: Installation", 1), `manifest: document 1: apiVersion must be landscaper.gardener.cloud/v1alpha1, not "landscaper.gardener.cloud/v1"`},
		"unknown kind":          {strings.Replace(minimal, "kind: Installation", "kind: Execution", 1), `kind "Execution" is not one of`},
		"no blueprint.yaml":     {strings.Replace(minimal, "blueprint.yaml: |", "other.yaml: |", 1), "spec.blueprint.inline.filesystem: has no blueprint.yaml"},
	} {
		t.Run(name, func(t *testing.T) {
			if c.want == "" {
				return
			}
			_, err := convertStrings(c.manifest, objects)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v\nwant it to contain %q", err, c.want)
			}
		})
	}
}

func convertStrings(manifest, objects string) (*Root, error) {
	m, err := Parse("manifest", manifest)
	if err != nil {
		return nil, err
	}
	o, err := Parse("manifest_objects", objects)
	if err != nil {
		return nil, err
	}
	return Convert(m, o, "app", "default")
}

// A filesystem entry that is neither text nor a directory is named.
func TestConvert_FilesystemEntry(t *testing.T) {
	_, err := convertStrings(withSpec("")+"        data:\n          nested:\n            count: 3\n", environment)
	if err == nil || !strings.Contains(err.Error(), "spec.blueprint.inline.filesystem.data.nested.count: must be a file's content") {
		t.Fatal(err)
	}
	root, err := convertStrings(withSpec("")+"        templates:\n          deploy.tpl: x\n", environment)
	if err != nil || root.Blueprint.Inline["templates/deploy.tpl"] != "x" {
		t.Fatalf("%v %v", err, root)
	}
}

// Errors about objects never quote their values: Targets hold credentials.
func TestParse_ErrorsHideValues(t *testing.T) {
	for _, stream := range []string{
		strings.Replace(environment, "  type: landscaper", "  typo: landscaper", 1),
		strings.Replace(environment, "      clusters: []", "      clusters: []\n  config: {x: SECRET}", 1),
		environment + "---\nkind: [SECRET\n",
	} {
		_, err := Parse("manifest_objects", stream)
		if err == nil {
			t.Fatalf("no error for\n%s", stream)
		}
		if strings.Contains(err.Error(), "SECRET") || strings.Contains(err.Error(), "clusters") {
			t.Errorf("error shows a value: %v", err)
		}
	}
}

// Landscaper's annotations and references resolve as Landscaper resolves
// them for a root installation.
func TestConvert_LandscaperSemantics(t *testing.T) {
	objects := environment + `---
apiVersion: landscaper.gardener.cloud/v1alpha1
kind: DataObject
metadata: {name: ` + objectName("My_Value") + `}
data: {count: 2, f: 1.5}
---
apiVersion: landscaper.gardener.cloud/v1alpha1
kind: DataObject
metadata: {name: global, namespace: default}
data: [a]
---
apiVersion: landscaper.gardener.cloud/v1alpha1
kind: DataObject
metadata: {name: global, namespace: other}
data: [b]
---
apiVersion: landscaper.gardener.cloud/v1alpha1
kind: Context
metadata: {name: shared}
repositoryContext: {type: ociRegistry, baseUrl: registry.example/components}
registryPullSecrets: [{name: pull}]
`
	manifest := withAnnotation(DeleteWithoutUninstallAnnotation, `"true"`) + `  context: shared
  componentDescriptor:
    ref: {componentName: example.com/app, version: v1.0.0}
  automaticReconcile: {succeededReconcile: {interval: 1h}}
  imports:
    data:
    - {name: hashed, dataRef: My_Value}
    - {name: global, dataRef: "#global"}
    - {name: password, secretRef: {name: creds, key: pw}}
    - {name: settings, configMapRef: {name: cm}}
`
	root, err := convertStrings(manifest, objects)
	if err != nil {
		t.Fatal(err)
	}
	if !root.DeleteWithoutUninstall {
		t.Error("delete-without-uninstall not read")
	}
	hashed, ok := root.Imports.Data["hashed"].(map[string]any)
	if !ok || hashed["count"] != int64(2) || hashed["f"] != 1.5 {
		t.Errorf("hashed data object %#v", root.Imports.Data["hashed"])
	}
	if g, ok := root.Imports.Data["global"].([]any); !ok || g[0] != "a" {
		t.Errorf("global data object %#v (want the one in the installation's namespace)", root.Imports.Data["global"])
	}
	want := []HostImport{{Import: "password", Kind: "Secret", Name: "creds", Namespace: "default", Key: "pw"},
		{Import: "settings", Kind: "ConfigMap", Name: "cm", Namespace: "default"}}
	if len(root.HostImports) != 2 || root.HostImports[0] != want[0] || root.HostImports[1] != want[1] {
		t.Errorf("host imports %+v", root.HostImports)
	}
	ref := root.Component.Ref
	if ref == nil || ref.Context.BaseURL != "registry.example/components" || ref.Name != "example.com/app" || ref.Version != "v1.0.0" {
		t.Errorf("component ref %+v", ref)
	}
	if len(root.Warnings) != 2 || !strings.Contains(strings.Join(root.Warnings, "\n"), "spec.automaticReconcile: ignored") ||
		!strings.Contains(strings.Join(root.Warnings, "\n"), "registryPullSecrets: ignored") {
		t.Errorf("warnings %q", root.Warnings)
	}
}

// A Context that is not among the objects is read from the host cluster,
// and gives the component's repository context there.
func TestConvert_HostContext(t *testing.T) {
	root, err := convertStrings(withSpec("  context: shared\n  componentDescriptor:\n    ref: {componentName: example.com/a, version: v1}\n"), environment)
	if err != nil || root.Context != "shared" || root.Component.Ref == nil || root.Component.Ref.Context.Type != "" {
		t.Fatalf("%v %+v", err, root)
	}
}

func TestParse_Duplicates(t *testing.T) {
	_, err := Parse("manifest_objects", environment+"---\n"+environment)
	if err == nil || !strings.Contains(err.Error(), `Target "local-cluster" (manifest_objects, document 3): the same kind and name as Target "local-cluster" (manifest_objects, document 1)`) {
		t.Fatal(err)
	}
	s, err := Parse("x", "# only a comment\n---\n---\n"+environment)
	if err != nil || len(s.Documents(KindTarget)) != 1 || len(s.Documents(KindDataObject)) != 1 {
		t.Fatalf("%v %+v", err, s)
	}
}

func TestParse_AliasBomb(t *testing.T) {
	var b strings.Builder
	b.WriteString("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n")
	for i := 1; i < 12; i++ {
		b.WriteString("a" + string(rune('0'+i%10)) + string(rune('a'+i)) + ": &a" + string(rune('a'+i)) + " [")
		prev := "a0"
		if i > 1 {
			prev = "a" + string(rune('a'+i-1))
		}
		b.WriteString(strings.Repeat("*"+prev+", ", 9) + "*" + prev + "]\n")
	}
	if _, err := Parse("manifest", b.String()); err == nil || !strings.Contains(err.Error(), "aliases") {
		t.Fatal(err)
	}
}
