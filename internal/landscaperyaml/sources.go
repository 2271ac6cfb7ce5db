package landscaperyaml

import (
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"sort"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint/component"
)

// blueprint reads spec.blueprint: a resource of the component, or an
// inline filesystem whose nested objects are directories (Landscaper
// reads it as a YAML filesystem).
func (c *converter) blueprint(inst installation) error {
	bp := inst.Spec.Blueprint
	switch {
	case bp.Ref != nil && bp.Inline != nil:
		return c.fieldErr("spec.blueprint", errors.New("give ref or inline, not both"))
	case bp.Ref != nil:
		if bp.Ref.ResourceName == "" {
			return c.fieldErr("spec.blueprint.ref.resourceName", errors.New("is empty"))
		}
		if c.root.Component == (Component{}) {
			return c.fieldErr("spec.blueprint.ref", errors.New("a blueprint resource needs spec.componentDescriptor"))
		}
		c.root.Blueprint.ResourceName = bp.Ref.ResourceName
	case bp.Inline != nil:
		var tree any
		if err := json.Unmarshal(bp.Inline.Filesystem, &tree); err != nil || tree == nil {
			return c.fieldErr("spec.blueprint.inline.filesystem", errors.New("must be an object of file name → content"))
		}
		files := map[string]string{}
		if err := flatten(tree, "", files); err != nil {
			return c.fieldErr("spec.blueprint.inline.filesystem"+err.Error(), errors.New("must be a file's content (a string) or a directory (an object)"))
		}
		if _, ok := files["blueprint.yaml"]; !ok {
			return c.fieldErr("spec.blueprint.inline.filesystem", errors.New("has no blueprint.yaml"))
		}
		c.root.Blueprint.Inline = files
	default:
		return c.fieldErr("spec.blueprint", errors.New("needs ref or inline"))
	}
	return nil
}

// pathError is the path of a filesystem entry that is neither a file nor
// a directory; its Error is the field path suffix.
type pathError string

func (e pathError) Error() string { return string(e) }

func flatten(node any, dir string, files map[string]string) error {
	obj, ok := node.(map[string]any)
	if !ok {
		return pathError("")
	}
	names := make([]string, 0, len(obj))
	for n := range obj {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		p := path.Join(dir, n)
		switch v := obj[n].(type) {
		case string:
			files[p] = v
		case map[string]any:
			if err := flatten(v, p, files); err != nil {
				return pathError("." + n + err.Error())
			}
		default:
			return pathError("." + n)
		}
	}
	return nil
}

// component reads spec.componentDescriptor. A ref without a repository
// context takes the one of the Installation's Context, as Landscaper does.
func (c *converter) component(inst installation) error {
	ctx, err := c.context(inst)
	if err != nil {
		return err
	}
	cd := inst.Spec.ComponentDescriptor
	switch {
	case cd == nil:
		return nil
	case cd.Ref != nil && len(cd.Inline) > 0:
		return c.fieldErr("spec.componentDescriptor", errors.New("give ref or inline, not both"))
	case len(cd.Inline) > 0:
		c.root.Component.Inline = string(cd.Inline)
		return nil
	case cd.Ref == nil:
		return c.fieldErr("spec.componentDescriptor", errors.New("needs ref or inline"))
	}
	ref, field := cd.Ref, "spec.componentDescriptor.ref"
	if ref.ComponentName == "" || ref.Version == "" {
		return c.fieldErr(field, errors.New("needs componentName and version"))
	}
	repo := ref.RepositoryContext
	if len(repo) == 0 && ctx != nil {
		repo, field = ctx.RepositoryContext, fmt.Sprintf("repositoryContext of Context %q", c.contextName(inst))
	} else {
		field += ".repositoryContext"
	}
	if len(repo) == 0 && !c.root.ContextInObjects {
		// The Context on the host cluster (the one named, or the
		// namespace's default Context) is to give the repository context.
		c.root.Component.Ref = &component.VersionRef{Name: ref.ComponentName, Version: ref.Version}
		return nil
	}
	if len(repo) == 0 {
		return c.fieldErr("spec.componentDescriptor.ref.repositoryContext", fmt.Errorf("is missing, and Context %q (manifest_objects) gives none", c.contextName(inst)))
	}
	spec, err := component.ParseRepositorySpec(repo)
	if err != nil {
		return c.fieldErr(field, err)
	}
	c.root.Component.Ref = &component.VersionRef{Context: spec, Name: ref.ComponentName, Version: ref.Version}
	return nil
}

// context finds the Context spec.context names (`default` when it names
// none, as Landscaper defaults it) among the objects and refuses what it
// cannot honour. A Context that is not among them is left to the caller
// to read from the host cluster (Root.Context; for the default Context,
// nothing: the caller reads it if it exists); nil then.
func (c *converter) context(inst installation) (*lsContext, error) {
	name := c.contextName(inst)
	doc, ok := c.objects.lookup(KindContext, name, c.root.Namespace)
	if !ok {
		if inst.Spec.Context != "" {
			// Not given as a manifest: read from the host cluster, as
			// Landscaper reads it.
			c.root.Context = name
		}
		return nil, nil
	}
	c.root.ContextInObjects = true
	var ctx lsContext
	if err := doc.decode(&ctx); err != nil {
		return nil, err
	}
	switch {
	case len(ctx.OCMConfig) > 0 && string(ctx.OCMConfig) != "null":
		return nil, fmt.Errorf("%s: ocmConfig: OCM configuration files are not supported; configure registries in the provider", doc)
	case ctx.ComponentVersionOverwrites != "":
		return nil, fmt.Errorf("%s: componentVersionOverwrites: not supported for a Context given as a manifest; leave the Context and its ComponentVersionOverwrites on the host cluster, or name the version in spec.componentDescriptor.ref", doc)
	case len(ctx.VerificationSignatures) > 0:
		return nil, fmt.Errorf("%s: verificationSignatures: component signature verification is not supported", doc)
	}
	if len(ctx.RegistryPullSecrets) > 0 {
		c.root.Warnings = append(c.root.Warnings, fmt.Sprintf("%s: registryPullSecrets: ignored for a Context given as a manifest; registry credentials come from the provider's registry settings, or from a Context left on the host cluster", doc))
	}
	if len(ctx.Configurations) > 0 {
		c.root.Warnings = append(c.root.Warnings, fmt.Sprintf("%s: configurations: ignored for a Context given as a manifest; "+
			"Helm chart repository credentials (helmChartRepoCredentials) are read from a Context left on the host cluster", doc))
	}
	return &ctx, nil
}

// contextName is the Context inst uses.
func (c *converter) contextName(inst installation) string {
	if inst.Spec.Context == "" {
		return defaultContextName
	}
	return inst.Spec.Context
}

// defaultContextName is the Context of an Installation that names none.
const defaultContextName = "default"
