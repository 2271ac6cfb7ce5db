// Package inventory is what an installation keeps in the clusters it
// deploys to, so that nothing it deployed is lost with the Terraform
// state (ARCHITECTURE.md, "Inventory").
//
// Every deployer call of a job carries the owning resource instance
// (deployer.Item.Instance), which deployers stamp on what they create. In
// every target cluster the installation deploys to, a parent Secret
// follows the Kubernetes ApplySet conventions (KEP 3659): it is written
// before the first object of the cluster is created, names the owning
// instance and records each deploy item with its provider status and the
// group kinds and namespaces of the objects its deployer declared
// (deployer.Result.Objects; the inventory never reads a deployer's
// provider status), and is rewritten as items finish, one write at a
// time with the latest content.
// Members carry deployer.PartOfLabel. The inventory knows deployers only
// by their contract (package deployer), never an implementation. A destroy deletes the
// parent last. Rebuild makes an engine snapshot from the parents, so an
// apply after a lost state, or an import, starts from what is deployed.
package inventory
