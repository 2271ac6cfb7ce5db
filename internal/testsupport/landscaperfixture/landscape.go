package landscaperfixture

import (
	"encoding/base64"
	"encoding/json"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// Names of the landscape's objects. Generated names carry the fixed
// suffixes a test can rely on.
var (
	RootName = "shop"
	// SubName is the "web" subinstallation's object name (generateName "web-").
	SubName = generatedName("web-", "q8m4z")
	// Deploy item object names: "<execution>-<item>-" and five characters.
	SettingsItemName = generatedName(RootName+"-settings-", "k7x2q")
	AppItemName      = generatedName(SubName+"-app-", "t2v9c")
	CacheItemName    = generatedName(SubName+"-cache-", "h5n7w")

	// Objects a user made and the root Installation imports.
	TargetName          = "shop-cluster"
	NamespaceDataObject = "shop-namespace"
	SettingsDataObject  = "shop-settings"
	// Root exports, in the root context: named by their dataRef.
	URLDataObject     = "shop-url"
	SummaryDataObject = "shop-summary"

	// What the deployers deployed into the target namespace.
	SettingsConfigMap = "shop-settings"
	WebDeployment     = "shop-web"
	ReleaseName       = "shop-cache"
)

// JobID is the job of the reconcile that installed the landscape; every
// object finished it (jobID == jobIDFinished).
const JobID = "5b0e6c1e-2f1d-4c7a-9d0e-8b1f3a6c2d47"

// Times Landscaper wrote into status and annotations.
const (
	startedAt  = "2026-11-20T09:14:02Z"
	finishedAt = "2026-11-20T09:14:31Z"
)

// Values the landscape was installed with.
const (
	Greeting       = "Welcome"
	MappedGreeting = "Welcome from the shop" // the root's importDataMappings
	Replicas       = 2
)

// Options say where the landscape lives.
type Options struct {
	// Namespace of the host objects (Installations, DataObjects, …).
	Namespace string
	// TargetNamespace is where the deploy items deployed to.
	TargetNamespace string
	// Kubeconfig of the target cluster, kept in the Target's spec.config.
	Kubeconfig string
	// HelmManifests deploys the "cache" item with helmDeployment: false,
	// as Landscaper's Helm deployer then does: the chart rendered and its
	// objects applied like manifests (labelled with both deployers' deploy
	// item labels, each in the provider status with policy manage), no
	// Helm release.
	HelmManifests bool
}

// Landscape is everything Landscaper left, as data.
type Landscape struct {
	Options
	// Host is every object in the host namespace, owners before the
	// objects they own: Landscaper's kinds and the deploy items' export
	// Secrets. Status is part of each object (Create writes it through
	// the status subresource).
	Host []*unstructured.Unstructured
	// Deployed is what the manifest deployer applied in the target cluster.
	Deployed []*unstructured.Unstructured
	// Release is the Helm release of the "cache" deploy item (its Name is
	// "" with HelmManifests: its objects are in Deployed then).
	Release Release
}

// Release is a Helm release as Landscaper's Helm deployer installs it.
type Release struct {
	Name, Namespace string
	Values          map[string]any
	// Chart is the chart archive (.tgz) the deploy item's config holds.
	Chart []byte
}

// Build returns the landscape for opts without touching a cluster.
func Build(opts Options) *Landscape {
	b := &builder{opts: opts}
	l := &Landscape{Options: opts}
	l.Host = append(l.Host, b.userObjects()...)
	l.Host = append(l.Host, b.contextObject())
	l.Host = append(l.Host, b.root()...)
	l.Host = append(l.Host, b.web()...)
	l.Deployed = b.deployed()
	if !opts.HelmManifests {
		l.Release = b.release()
	}
	return l
}

// Find returns the host object of kind and name, nil if there is none.
func (l *Landscape) Find(kind, name string) *unstructured.Unstructured {
	for _, o := range l.Host {
		if o.GetKind() == kind && o.GetName() == name {
			return o
		}
	}
	return nil
}

type builder struct{ opts Options }

// settingsData is the shop-settings DataObject's data.
func settingsData() object { return object{"greeting": Greeting, "replicas": Replicas} }

// userObjects are what the user applied next to the root Installation.
func (b *builder) userObjects() []*unstructured.Unstructured {
	ns := b.opts.Namespace
	return []*unstructured.Unstructured{
		newObject("Target", meta{name: TargetName, namespace: ns}, object{"spec": object{
			"type":   "landscaper.gardener.cloud/kubernetes-cluster",
			"config": object{"kubeconfig": b.opts.Kubeconfig},
		}}),
		newObject("DataObject", meta{name: NamespaceDataObject, namespace: ns}, object{"data": b.opts.TargetNamespace}),
		newObject("DataObject", meta{name: SettingsDataObject, namespace: ns}, object{"data": settingsData()}),
	}
}

// contextObject is the "default" Context Landscaper's context controller
// keeps in every namespace.
func (b *builder) contextObject() *unstructured.Unstructured {
	return newObject("Context", meta{name: "default", namespace: b.opts.Namespace}, object{"componentVersionOverwrites": ""})
}

// importObject is the DataObject or Target in which Landscaper records
// the value an installation imported, in the installation's own context.
func (b *builder) importObject(installation, key string, data any) *unstructured.Unstructured {
	ctx := installationContext(installation)
	m := meta{
		name: dataObjectName(ctx, key), namespace: b.opts.Namespace,
		labels: map[string]string{
			labelDOContext: ctx, labelDOSourceType: "import", labelDOSource: ctx, labelDOKey: key, labelDOJobID: JobID,
		},
		annotations: map[string]string{annDOHash: dataHash(data)},
		owners:      []owner{{kind: "Installation", name: installation}},
	}
	if t, ok := data.(object); ok && t["kind"] == "Target" {
		spec := t["spec"]
		return newObject("Target", m, object{"spec": spec})
	}
	return newObject("DataObject", m, object{"data": data})
}

// exportObject is the DataObject in which Landscaper publishes an
// installation's export into the context its parent sees.
func (b *builder) exportObject(installation, context, dataRef string, data any) *unstructured.Unstructured {
	m := meta{
		name: dataObjectName(context, dataRef), namespace: b.opts.Namespace,
		labels: map[string]string{
			labelDOSourceType: "export", labelDOSource: installationContext(installation), labelDOKey: dataRef, labelDOJobID: JobID,
		},
		annotations: map[string]string{annDOHash: dataHash(data)},
		owners:      []owner{{kind: "Installation", name: installation}},
	}
	if context != "" {
		m.labels[labelDOContext] = context
	}
	return newObject("DataObject", m, object{"data": data})
}

// executionExports is the DataObject an Execution keeps its deploy
// items' exports in, by item name.
func (b *builder) executionExports(execution string, values object) *unstructured.Unstructured {
	ctx := "Exec." + execution
	return newObject("DataObject", meta{
		name: dataObjectName(ctx, ""), namespace: b.opts.Namespace,
		labels:      map[string]string{labelDOContext: ctx, labelDOSource: ctx},
		annotations: map[string]string{annDOHash: dataHash(values)},
		owners:      []owner{{kind: "Execution", name: execution}},
	}, object{"data": values})
}

// exportSecret is the Secret in which a deployer leaves a deploy item's
// exports (key "config", YAML or JSON).
func (b *builder) exportSecret(item string, exports object) *unstructured.Unstructured {
	u := newObject("Secret", meta{name: item + "-export", namespace: b.opts.Namespace,
		owners: []owner{{kind: "DeployItem", name: item}}}, object{"type": "Opaque",
		"data": object{"config": base64.StdEncoding.EncodeToString(mustJSON(exports))}})
	u.SetAPIVersion("v1")
	return u
}

func mustJSON(v any) []byte {
	raw, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return raw
}
