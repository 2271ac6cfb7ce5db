package deployer

// The deploy item types of the built-in deployers, as Landscaper names
// them. Each deployer package serves its own (manifest.Type, helm.Type
// and mock.Type are these); code that names a type without importing its
// deployer (a running Landscaper's objects, package landscaperstate)
// uses them here. Behaviour that differs by type is asked of the
// deployer, never decided by comparing these (Registry.Declared).
const (
	ManifestType = "landscaper.gardener.cloud/kubernetes-manifest"
	HelmType     = "landscaper.gardener.cloud/helm"
	MockType     = "landscaper.gardener.cloud/mock"
)
