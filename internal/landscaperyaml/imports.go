package landscaperyaml

import (
	"crypto/sha1" // Landscaper names data objects with it; not used for security
	"encoding/base32"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/lazyregexp"
)

// dataImports reads spec.imports.data: a dataRef from a DataObject of the
// objects given, secretRef and configMapRef as references to read later.
func (c *converter) dataImports(inst installation) error {
	c.root.Imports = blueprint.Imports{
		Data:        map[string]any{},
		Targets:     map[string]api.Target{},
		TargetLists: map[string][]api.Target{},
		TargetMaps:  map[string]map[string]api.Target{},
	}
	seen := map[string]bool{}
	for i, im := range inst.Spec.Imports.Data {
		field := fmt.Sprintf("spec.imports.data[%d]", i)
		if err := c.uniqueImport(seen, im.Name, field); err != nil {
			return err
		}
		if im.Version != "" && im.Version != "v1" {
			return c.fieldErr(field+".version", fmt.Errorf("%q is not a data object version (v1)", im.Version))
		}
		set := 0
		for _, ok := range []bool{im.DataRef != "", im.SecretRef != nil, im.ConfigMapRef != nil} {
			if ok {
				set++
			}
		}
		if set != 1 {
			return c.fieldErr(field, errors.New("needs exactly one of dataRef, secretRef and configMapRef"))
		}
		switch {
		case im.DataRef != "":
			v, err := c.dataObject(im.DataRef, field+".dataRef")
			if err != nil {
				return err
			}
			c.root.Imports.Data[im.Name] = v
		case im.SecretRef != nil:
			if err := c.hostImport(im.Name, "Secret", *im.SecretRef, field+".secretRef"); err != nil {
				return err
			}
		default:
			if err := c.hostImport(im.Name, "ConfigMap", *im.ConfigMapRef, field+".configMapRef"); err != nil {
				return err
			}
		}
	}
	return nil
}

func (c *converter) uniqueImport(seen map[string]bool, name, field string) error {
	if name == "" {
		return c.fieldErr(field+".name", errors.New("is empty"))
	}
	if seen[name] {
		return c.fieldErr(field+".name", fmt.Errorf("%q is imported twice", name))
	}
	seen[name] = true
	return nil
}

func (c *converter) hostImport(name, kind string, ref localRef, field string) error {
	if ref.Name == "" {
		return c.fieldErr(field+".name", errors.New("is empty"))
	}
	c.root.HostImports = append(c.root.HostImports, HostImport{Import: name, Kind: kind, Name: ref.Name, Namespace: c.root.Namespace, Key: ref.Key})
	return nil
}

// dataObject returns the data of the DataObject a root installation's
// dataRef names, as Landscaper finds it (objectName).
func (c *converter) dataObject(ref, field string) (any, error) {
	name := objectName(ref)
	doc, ok := c.objects.lookup(KindDataObject, name, c.root.Namespace)
	if !ok {
		return nil, c.fieldErr(field, fmt.Errorf("no DataObject %q in namespace %q among the objects given", name, c.root.Namespace))
	}
	var do dataObject
	if err := doc.decode(&do); err != nil {
		return nil, err
	}
	v, err := plainValue(do.Data)
	if err != nil {
		return nil, fmt.Errorf("%s: data: %w", doc, err)
	}
	return v, nil
}

// plainValue decodes JSON the way the HCL form's values arrive: whole
// numbers as int64, other numbers as float64.
func plainValue(raw json.RawMessage) (any, error) {
	if len(raw) == 0 {
		return nil, nil
	}
	var v any
	if err := api.DecodeExact(raw, &v, api.AllowTrailing); err != nil {
		return nil, errors.New("not valid JSON")
	}
	return api.MapNumbers(v, api.ExactNumber), nil // integers beyond int64 keep their digits
}

// targetImports reads spec.imports.targets from the Targets given.
// targetListRef and targetMapRef refer to a parent's imports, which a
// root installation does not have.
func (c *converter) targetImports(inst installation) error {
	seen := map[string]bool{}
	for name := range c.root.Imports.Data {
		seen[name] = true
	}
	for _, h := range c.root.HostImports {
		seen[h.Import] = true
	}
	for i, im := range inst.Spec.Imports.Targets {
		field := fmt.Sprintf("spec.imports.targets[%d]", i)
		if err := c.uniqueImport(seen, im.Name, field); err != nil {
			return err
		}
		switch {
		case im.TargetListRef != "":
			return c.fieldErr(field+".targetListRef", errors.New("refers to a parent installation's import; a root installation has no parent (list the Targets in targets)"))
		case im.TargetMapRef != "":
			return c.fieldErr(field+".targetMapRef", errors.New("refers to a parent installation's import; a root installation has no parent (list the Targets in targetMap)"))
		}
		set := 0
		for _, ok := range []bool{im.Target != "", im.Targets != nil, im.TargetMap != nil} {
			if ok {
				set++
			}
		}
		if set != 1 {
			return c.fieldErr(field, errors.New("needs exactly one of target, targets and targetMap"))
		}
		switch {
		case im.Target != "":
			t, err := c.target(im.Target, field+".target")
			if err != nil {
				return err
			}
			c.root.Imports.Targets[im.Name] = t
		case im.Targets != nil:
			list := make([]api.Target, 0, len(im.Targets))
			for j, ref := range im.Targets {
				t, err := c.target(ref, fmt.Sprintf("%s.targets[%d]", field, j))
				if err != nil {
					return err
				}
				list = append(list, t)
			}
			c.root.Imports.TargetLists[im.Name] = list
		default:
			m := make(map[string]api.Target, len(im.TargetMap))
			for key, ref := range im.TargetMap {
				t, err := c.target(ref, fmt.Sprintf("%s.targetMap[%s]", field, key))
				if err != nil {
					return err
				}
				m[key] = t
			}
			c.root.Imports.TargetMaps[im.Name] = m
		}
	}
	return nil
}

// target returns the Target a root installation's target import names.
// Its config must be inline: a Target whose config is in a Secret would
// need the host cluster at plan time.
func (c *converter) target(ref, field string) (api.Target, error) {
	name := objectName(ref)
	doc, ok := c.objects.lookup(KindTarget, name, c.root.Namespace)
	if !ok {
		return api.Target{}, c.fieldErr(field, fmt.Errorf("no Target %q in namespace %q among the objects given", name, c.root.Namespace))
	}
	var t target
	if err := doc.decode(&t); err != nil {
		return api.Target{}, err
	}
	switch {
	case t.Spec.SecretRef != nil:
		return api.Target{}, fmt.Errorf("%s: spec.secretRef: Targets whose config is in a Secret are not supported; give spec.config (or use landscaper_target)", doc)
	case t.Spec.Type == "":
		return api.Target{}, fmt.Errorf("%s: spec.type is empty", doc)
	case len(t.Spec.Config) == 0 || string(t.Spec.Config) == "null":
		return api.Target{}, fmt.Errorf("%s: spec.config is empty", doc)
	}
	out := api.NewTarget(t.Metadata.Name, t.Metadata.Namespace, t.Spec.Type, t.Spec.Config)
	out.Metadata.Labels, out.Metadata.Annotations = t.Metadata.Labels, t.Metadata.Annotations
	if err := api.UnsupportedClusterConfig(out); err != nil {
		return api.Target{}, fmt.Errorf("%s: %w", doc, err)
	}
	return out, nil
}

// subdomain is the Kubernetes object name syntax Landscaper checks.
var subdomain = lazyregexp.New(`^([a-z0-9]|([a-z0-9][a-z0-9.-]*[a-z0-9]))$`)

// objectName is the name of the DataObject or Target a root
// installation's reference means, as Landscaper derives it: "#name" is
// name itself, a valid object name is itself, and any other reference is
// hashed (base32 of the SHA-1 of "/<ref>", the empty context of a root).
func objectName(ref string) string {
	if name, ok := strings.CutPrefix(ref, "#"); ok {
		return name
	}
	if subdomain().MatchString(ref) {
		return ref
	}
	sum := sha1.Sum([]byte("/" + ref))
	return base32.NewEncoding("abcdefghijklmnopqrstuvwxyz234567").WithPadding(base32.NoPadding).EncodeToString(sum[:])
}
