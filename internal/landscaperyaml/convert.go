package landscaperyaml

import (
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint/component"
)

// Root is one root Installation in the terms of landscaper_installation's
// HCL form: what its attributes would hold had the user written them.
type Root struct {
	Name      string
	Namespace string
	// Blueprint is spec.blueprint: Inline or ResourceName.
	Blueprint blueprint.Source
	// Component is spec.componentDescriptor; both fields empty when there
	// is none.
	Component Component
	// Context names a Context that spec.context refers to and the objects
	// given do not hold: it is read from the host cluster, with its
	// repository context and registry pull secrets. Empty, and
	// ContextInObjects false: the namespace's default Context on the host
	// cluster, if there is one (spec.context defaults to `default`).
	Context string
	// ContextInObjects says the Context (the one spec.context names, or
	// `default`) is among the objects: it gave the component's repository
	// context, and nothing is read from the host cluster for it.
	ContextInObjects bool
	// Imports are the data imports read from DataObjects and the target
	// imports read from Targets.
	Imports blueprint.Imports
	// HostImports are data imports from Secrets and ConfigMaps of the
	// installation's namespace, which the caller reads from the host
	// cluster (at apply, like imports.secrets / imports.config_maps).
	HostImports []HostImport
	// ImportDataMappings and ExportDataMappings are the spec's mappings.
	ImportDataMappings map[string]json.RawMessage
	ExportDataMappings map[string]json.RawMessage
	// DeleteWithoutUninstall is the delete-without-uninstall annotation.
	DeleteWithoutUninstall bool
	// Warnings name fields that have no effect here.
	Warnings []string
}

// Component is where an Installation's component descriptor comes from.
type Component struct {
	// Inline is spec.componentDescriptor.inline as JSON.
	Inline string
	// Ref is spec.componentDescriptor.ref, its repository context
	// defaulted from the Installation's Context given as an object; empty
	// (Type "") when the Context on the host cluster is to give it
	// (Root.Context, or the default Context).
	Ref *component.VersionRef
}

// HostImport is a data import read from a Secret or ConfigMap.
type HostImport struct {
	// Import is the import's name.
	Import string
	// Kind is "Secret" or "ConfigMap".
	Kind      string
	Name      string
	Namespace string
	// Key selects one key; empty imports every key as a map.
	Key string
}

// Convert translates the one Installation of manifest, with the
// DataObjects, Targets and Contexts of objects it refers to. namespace is
// where the installation is (the resource's namespace); the manifest's
// metadata.namespace, when set, must be the same. Every error names the
// document and the field.
func Convert(manifest, objects *Set, name, namespace string) (*Root, error) {
	insts := manifest.Documents(KindInstallation)
	if len(manifest.docs) != 1 || len(insts) != 1 {
		return nil, fmt.Errorf("%s must hold exactly one document, an Installation; it holds %s", sourceOf(manifest), describe(manifest))
	}
	doc := insts[0]
	var inst installation
	if err := doc.decode(&inst); err != nil {
		return nil, err
	}
	c := converter{doc: doc, objects: objects, root: &Root{Name: inst.Metadata.Name, Namespace: namespace}}
	if objects == nil {
		c.objects = &Set{}
	}
	if inst.Metadata.Name != name {
		return nil, c.fieldErr("metadata.name", fmt.Errorf("is %q, but the resource's name is %q; they must be equal", inst.Metadata.Name, name))
	}
	if inst.Metadata.Namespace != "" && inst.Metadata.Namespace != namespace {
		return nil, c.fieldErr("metadata.namespace", fmt.Errorf("is %q, but the resource's namespace is %q; they must be equal", inst.Metadata.Namespace, namespace))
	}
	steps := []func(installation) error{c.annotations, c.spec, c.component, c.blueprint, c.dataImports, c.targetImports, c.mappings, c.exports}
	for _, step := range steps {
		if err := step(inst); err != nil {
			return nil, err
		}
	}
	return c.root, nil
}

func sourceOf(s *Set) string {
	if len(s.docs) > 0 {
		return s.docs[0].Source
	}
	return "the manifest"
}

func describe(s *Set) string {
	if len(s.docs) == 0 {
		return "none"
	}
	names := make([]string, 0, len(s.docs))
	for _, d := range s.docs {
		names = append(names, d.String())
	}
	return strings.Join(names, ", ")
}

// converter carries one conversion's input and result.
type converter struct {
	doc     Document
	objects *Set
	root    *Root
}

// fieldErr is err about field of the Installation.
func (c *converter) fieldErr(field string, err error) error {
	return fmt.Errorf("%s: %s: %w", c.doc, field, err)
}

func (c *converter) warn(field, msg string) {
	c.root.Warnings = append(c.root.Warnings, fmt.Sprintf("%s: %s: %s", c.doc, field, msg))
}

// annotations interprets Landscaper's annotations. An operation is what
// the next Terraform run does anyway (reconcile) or has an equivalent
// outside the manifest (interrupt: Ctrl-C), so only reconcile is
// accepted; Landscaper annotations this provider does not know are
// refused rather than ignored.
func (c *converter) annotations(inst installation) error {
	keys := make([]string, 0, len(inst.Metadata.Annotations))
	for k := range inst.Metadata.Annotations {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		v := inst.Metadata.Annotations[k]
		field := fmt.Sprintf("metadata.annotations[%s]", k)
		switch k {
		case OperationAnnotation:
			switch v {
			case "reconcile", "force-reconcile":
				// Every terraform apply runs a new job: nothing to do.
			case "interrupt":
				return c.fieldErr(field, errors.New(`"interrupt" cannot be applied from a manifest; interrupt a running terraform apply (Ctrl-C) instead`))
			default:
				return c.fieldErr(field, fmt.Errorf("operation %q is not supported (reconcile is what every terraform apply does)", v))
			}
		case DeleteWithoutUninstallAnnotation:
			switch v {
			case "true":
				c.root.DeleteWithoutUninstall = true
			case "false":
			default:
				return c.fieldErr(field, fmt.Errorf("must be \"true\" or \"false\", not %q", v))
			}
		case "landscaper.gardener.cloud/reconcile-reason", "landscaper.gardener.cloud/reconcile-if-changed",
			"landscaper.gardener.cloud/touch", "landscaper.gardener.cloud/cache-helm-charts":
			// They start or tune Landscaper's reconciles; terraform apply
			// reconciles whenever it runs, so they change nothing here.
		default:
			if strings.HasPrefix(k, "landscaper.gardener.cloud/") {
				return c.fieldErr(field, errors.New("this Landscaper annotation is not supported"))
			}
		}
	}
	return nil
}

// spec handles the fields that configure Landscaper's controllers.
func (c *converter) spec(inst installation) error {
	if len(inst.Spec.Verification) > 0 {
		// Not verifying a signature the user asked for would be a silent
		// security downgrade.
		return c.fieldErr("spec.verification", errors.New("component signature verification is not supported; remove the field to install without it"))
	}
	if len(inst.Spec.AutomaticReconcile) > 0 {
		c.warn("spec.automaticReconcile", "ignored: Terraform runs are the reconcile loop; schedule terraform apply instead")
	}
	if len(inst.Spec.Optimization) > 0 {
		c.warn("spec.optimization", "ignored: it tunes Landscaper's controllers")
	}
	return nil
}

// mappings copies importDataMappings and exportDataMappings unchanged.
func (c *converter) mappings(inst installation) error {
	c.root.ImportDataMappings = inst.Spec.ImportDataMappings
	c.root.ExportDataMappings = inst.Spec.ExportDataMappings
	return nil
}

// exports checks spec.exports. Root exports are returned by export name
// (the resource's exports and target_exports), so dataRef and target
// only have to be well formed.
func (c *converter) exports(inst installation) error {
	seen := map[string]bool{}
	for i, e := range inst.Spec.Exports.Data {
		field := fmt.Sprintf("spec.exports.data[%d]", i)
		if e.Name == "" || e.DataRef == "" {
			return c.fieldErr(field, errors.New("needs name and dataRef"))
		}
		if seen[e.Name] {
			return c.fieldErr(field+".name", fmt.Errorf("%q is exported twice", e.Name))
		}
		seen[e.Name] = true
	}
	for i, e := range inst.Spec.Exports.Targets {
		if e.Name == "" || e.Target == "" {
			return c.fieldErr(fmt.Sprintf("spec.exports.targets[%d]", i), errors.New("needs name and target"))
		}
	}
	return nil
}
