package manifest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/failure"
)

// Type is the deploy item type this deployer handles.
const Type = deployer.ManifestType

// ProviderConfiguration is Landscaper's manifest deployer configuration
// (manifest.deployer.landscaper.gardener.cloud v1alpha2; v1alpha1's plain
// list of manifests is converted into it).
type ProviderConfiguration struct {
	APIVersion                 string               `json:"apiVersion,omitempty"`
	Kind                       string               `json:"kind,omitempty"`
	UpdateStrategy             UpdateStrategy       `json:"updateStrategy,omitempty"`
	ReadinessChecks            ReadinessCheckConfig `json:"readinessChecks,omitempty"`
	Manifests                  []Manifest           `json:"manifests,omitempty"`
	Exports                    *Exports             `json:"exports,omitempty"`
	DeletionGroups             []DeletionGroup      `json:"deletionGroups,omitempty"`
	DeletionGroupsDuringUpdate []DeletionGroup      `json:"deletionGroupsDuringUpdate,omitempty"`
	ContinuousReconcile        json.RawMessage      `json:"continuousReconcile,omitempty"`
	Kubeconfig                 string               `json:"kubeconfig,omitempty"`
	// DeleteTimeout bounds a deletion (of the item or of objects dropped
	// from it); unset or "none", the deploy item's own timeout bounds it.
	DeleteTimeout *api.Duration `json:"deleteTimeout,omitempty"`
}

// UpdateStrategy says how an existing object is brought to its manifest.
type UpdateStrategy string

// Update strategies. All four are carried out with server-side apply (see
// applyObject): it changes exactly the fields the manifest sets, removes
// the fields this item set before and no longer sets, and needs no read
// of the object first, which is what Landscaper's update and patch achieve
// with more round trips. merge keeps values already present in the
// cluster; mergeOverwrite lets the manifest win, like update.
const (
	UpdateStrategyUpdate         UpdateStrategy = "update"
	UpdateStrategyPatch          UpdateStrategy = "patch"
	UpdateStrategyMerge          UpdateStrategy = "merge"
	UpdateStrategyMergeOverwrite UpdateStrategy = "mergeOverwrite"
)

// Policy says what the deployer may do with one object.
type Policy string

// Manifest policies (Landscaper's managedresource.ManifestPolicy).
const (
	// PolicyManage creates, updates and deletes the object.
	PolicyManage Policy = "manage"
	// PolicyFallback is manage, except that an object labeled by another
	// deploy item is left alone.
	PolicyFallback Policy = "fallback"
	// PolicyKeep creates and updates but never deletes.
	PolicyKeep Policy = "keep"
	// PolicyIgnore does nothing at all.
	PolicyIgnore Policy = "ignore"
	// PolicyImmutable creates and deletes but never updates.
	PolicyImmutable Policy = "immutable"
)

// Manifest is one object with its policy and hooks.
type Manifest struct {
	Policy               Policy            `json:"policy,omitempty"`
	Manifest             json.RawMessage   `json:"manifest,omitempty"`
	AnnotateBeforeCreate map[string]string `json:"annotateBeforeCreate,omitempty"`
	AnnotateBeforeDelete map[string]string `json:"annotateBeforeDelete,omitempty"`
	// PatchAfterDeployment and PatchBeforeDelete are JSON merge patches.
	PatchAfterDeployment json.RawMessage `json:"patchAfterDeployment,omitempty"`
	PatchBeforeDelete    json.RawMessage `json:"patchBeforeDelete,omitempty"`
	// LeftToOthers is an extension of Landscaper's configuration: fields
	// of the object other field managers own (an HPA's `.spec.replicas`,
	// a CI's image, a webhook's annotation), taken out of the object
	// before it is applied, previewed or compared for drift, so that the
	// apply leaves them to their managers (leftfields.go).
	LeftToOthers []string `json:"leftToOthers,omitempty"`
}

// Exports lists the values the item exports.
type Exports struct {
	Exports []Export `json:"exports,omitempty"`
}

// Export reads one value: JSONPath over FromResource, optionally followed
// through an object reference (FromObjectRef).
type Export struct {
	Key           string         `json:"key"`
	JSONPath      string         `json:"jsonPath"`
	FromResource  *ObjectRef     `json:"fromResource,omitempty"`
	FromObjectRef *FromObjectRef `json:"fromObjectRef,omitempty"`
	// TargetName names another target of the installation to read from
	// (Landscaper's additional targets, targets.go).
	TargetName *string `json:"targetName,omitempty"`
}

// FromObjectRef says that the value found is a {name, namespace}
// reference to an object of APIVersion/Kind, from which JSONPath is read.
type FromObjectRef struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	JSONPath   string `json:"jsonPath"`
}

// ObjectRef names one object: the deployers' one object reference.
type ObjectRef = deployer.ObjectRef

// DeletionGroup is one step of a deletion (Landscaper's
// DeletionGroupDefinition): a predefined group or a custom list of types.
type DeletionGroup struct {
	PredefinedResourceGroup *PredefinedResourceGroup `json:"predefinedResourceGroup,omitempty"`
	CustomResourceGroup     *CustomResourceGroup     `json:"customResourceGroup,omitempty"`
}

// Predefined deletion group types.
const (
	GroupNamespaced    = "namespaced-resources"
	GroupClusterScoped = "cluster-scoped-resources"
	GroupCRDs          = "crds"
	GroupEmpty         = "empty"
)

// PredefinedResourceGroup selects managed objects by scope.
type PredefinedResourceGroup struct {
	Type        string `json:"type,omitempty"`
	ForceDelete bool   `json:"forceDelete,omitempty"`
}

// CustomResourceGroup selects objects by type, optionally by name and
// namespace; DeleteAllResources extends it to unmanaged objects.
type CustomResourceGroup struct {
	Resources          []ResourceType `json:"resources,omitempty"`
	ForceDelete        bool           `json:"forceDelete,omitempty"`
	DeleteAllResources bool           `json:"deleteAllResources,omitempty"`
	// TargetName names another target of the installation to delete on
	// (targets.go); it needs DeleteAllResources.
	TargetName *string `json:"targetName,omitempty"`
}

// ResourceType selects objects of one kind.
type ResourceType struct {
	APIVersion string   `json:"apiVersion,omitempty"`
	Kind       string   `json:"kind,omitempty"`
	Names      []string `json:"names,omitempty"`
	Namespaces []string `json:"namespaces,omitempty"`
}

// ParseConfig decodes and validates a manifest deploy item configuration.
// Every error is terminal: the same config fails the same way next time.
func ParseConfig(raw json.RawMessage) (*ProviderConfiguration, error) {
	cfg, err := parseConfig(raw)
	if err != nil {
		return nil, failure.NewTerminal("InvalidConfig", fmt.Errorf("invalid manifest configuration: %w", err))
	}
	return cfg, nil
}

func parseConfig(raw json.RawMessage) (*ProviderConfiguration, error) {
	if len(raw) == 0 {
		return nil, errors.New("config is empty")
	}
	var cfg ProviderConfiguration
	// Unknown fields are accepted, as Landscaper does, so configs written
	// for newer Landscaper versions still apply.
	dec := json.NewDecoder(strings.NewReader(string(raw)))
	if strings.HasSuffix(peekAPIVersion(raw), "/v1alpha1") {
		var v1 v1alpha1Configuration
		if err := dec.Decode(&v1); err != nil {
			return nil, err
		}
		cfg = v1.ProviderConfiguration
		cfg.Manifests = nil
		for _, m := range v1.Manifests {
			cfg.Manifests = append(cfg.Manifests, Manifest{Policy: PolicyManage, Manifest: m})
		}
	} else if err := dec.Decode(&cfg); err != nil {
		return nil, err
	}
	if cfg.Kind != "" && cfg.Kind != "ProviderConfiguration" {
		return nil, fmt.Errorf("kind is %q, want ProviderConfiguration", cfg.Kind)
	}
	if cfg.Kubeconfig != "" {
		return nil, errors.New("config.kubeconfig is not supported: use the deploy item's target")
	}
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	return &cfg, nil
}

// v1alpha1Configuration is v1alpha1's form: manifests is a list of plain
// objects.
type v1alpha1Configuration struct {
	ProviderConfiguration
	Manifests []json.RawMessage `json:"manifests,omitempty"`
}

func peekAPIVersion(raw json.RawMessage) string {
	var tm struct {
		APIVersion string `json:"apiVersion"`
	}
	_ = json.Unmarshal(raw, &tm)
	return tm.APIVersion
}

func (c *ProviderConfiguration) validate() error {
	switch c.UpdateStrategy {
	case "":
		c.UpdateStrategy = UpdateStrategyUpdate
	case UpdateStrategyUpdate, UpdateStrategyPatch, UpdateStrategyMerge, UpdateStrategyMergeOverwrite:
	default:
		return fmt.Errorf("updateStrategy %q is not one of update, patch, merge, mergeOverwrite", c.UpdateStrategy)
	}
	for i := range c.Manifests {
		m := &c.Manifests[i]
		switch m.Policy {
		case "":
			m.Policy = PolicyManage
		case PolicyManage, PolicyFallback, PolicyKeep, PolicyIgnore, PolicyImmutable:
		default:
			return fmt.Errorf("manifests[%d]: policy %q is not one of manage, fallback, keep, ignore, immutable", i, m.Policy)
		}
		if len(m.Manifest) == 0 || string(m.Manifest) == "null" {
			return fmt.Errorf("manifests[%d]: manifest is missing", i)
		}
	}
	if err := c.ReadinessChecks.Validate(); err != nil {
		return err
	}
	if c.Exports != nil {
		if err := ValidateExports("exports.exports", c.Exports.Exports, true); err != nil {
			return err
		}
	}
	if err := ValidateDeletionGroups("deletionGroups", c.DeletionGroups); err != nil {
		return err
	}
	return ValidateDeletionGroups("deletionGroupsDuringUpdate", c.DeletionGroupsDuringUpdate)
}

// ValidateExports checks the exports at field (a path for messages);
// needResource says every export reads an object (fromResource), as the
// manifest deployer's do; the Helm deployer's may read the values instead.
func ValidateExports(field string, exports []Export, needResource bool) error {
	for i, e := range exports {
		switch {
		case e.Key == "":
			return fmt.Errorf("%s[%d]: key is missing", field, i)
		case needResource && e.FromResource == nil:
			return fmt.Errorf("export %q: fromResource is missing", e.Key)
		}
		if err := validTargetName(fmt.Sprintf("%s[%d] (%s)", field, i, e.Key), e.TargetName); err != nil {
			return err
		}
	}
	return nil
}

// ValidateDeletionGroups checks the deletion groups at field (a path for
// messages) as Landscaper's validation does.
func ValidateDeletionGroups(field string, groups []DeletionGroup) error {
	for i, g := range groups {
		switch {
		case (g.PredefinedResourceGroup == nil) == (g.CustomResourceGroup == nil):
			return fmt.Errorf("%s[%d]: set exactly one of predefinedResourceGroup and customResourceGroup", field, i)
		case g.PredefinedResourceGroup != nil:
			switch g.PredefinedResourceGroup.Type {
			case GroupNamespaced, GroupClusterScoped, GroupCRDs, GroupEmpty:
			default:
				return fmt.Errorf("%s[%d]: predefined group type %q is not one of %s, %s, %s, %s", field, i,
					g.PredefinedResourceGroup.Type, GroupNamespaced, GroupClusterScoped, GroupCRDs, GroupEmpty)
			}
		default:
			c := g.CustomResourceGroup
			if err := validTargetName(fmt.Sprintf("%s[%d].customResourceGroup", field, i), c.TargetName); err != nil {
				return err
			}
			// As Landscaper: on another cluster the item manages nothing,
			// so such a group deletes all objects of its types there.
			if c.TargetName != nil && !c.DeleteAllResources {
				return fmt.Errorf("%s[%d].customResourceGroup: targetName needs deleteAllResources: true", field, i)
			}
			for j, r := range g.CustomResourceGroup.Resources {
				if r.APIVersion == "" || r.Kind == "" {
					return fmt.Errorf("%s[%d].resources[%d]: apiVersion and kind are required", field, i, j)
				}
			}
		}
	}
	return nil
}

// deleteContext bounds ctx by the configured deleteTimeout.
func (c *ProviderConfiguration) deleteContext(ctx context.Context) (context.Context, context.CancelFunc) {
	if c == nil || c.DeleteTimeout == nil || c.DeleteTimeout.Effective() == 0 {
		return context.WithCancel(ctx)
	}
	return context.WithTimeout(ctx, c.DeleteTimeout.Effective())
}

func invalid(err error) error { return failure.NewTerminal("InvalidConfig", err) }
