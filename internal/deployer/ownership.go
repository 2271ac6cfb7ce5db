package deployer

import (
	"crypto/sha256"
	"encoding/hex"

	"github.com/google/uuid"
)

// What a deployer puts on everything it creates in a target cluster, so
// that ownership survives a lost state (ARCHITECTURE.md, "Ownership
// labels"). Every deployer that writes Kubernetes objects (or Helm
// releases) labels them so, and reads them back the same way before it
// takes an object over, changes or deletes it.
const (
	// OwnerLabel says which deploy item an object belongs to, as
	// OwnerValue of the item's ID: an apply takes over objects with its
	// own value (or none) and refuses those with another item's.
	OwnerLabel = "landscaper.gardener.cloud/deploy-item"
	// OwnerAnnotation keeps the readable item ID beside OwnerLabel, for
	// messages.
	OwnerAnnotation = "landscaper.gardener.cloud/deploy-item-id"
	// InstanceLabel names the installation resource instance
	// (Item.Instance) that last applied an object: OwnerLabel decides who
	// may adopt an object, InstanceLabel who may delete it (AdoptedBy).
	InstanceLabel = "landscaper.gardener.cloud/installation-instance"
	// PartOfLabel makes an object a member of the installation's
	// inventory in its cluster, an ApplySet (KEP 3659) with the ID
	// Item.PartOf.
	PartOfLabel = "applyset.kubernetes.io/part-of"
)

// OwnerValue is the OwnerLabel value of the deploy item with this ID: a
// hash, because item IDs contain "/" and may exceed the 63 characters a
// label value allows.
func OwnerValue(itemID string) string {
	sum := sha256.Sum256([]byte(itemID))
	return hex.EncodeToString(sum[:])[:40]
}

// NewInstance returns the ID of a new installation instance: a UUIDv7,
// whose text sorts by creation time, so that the instances of one
// installation can tell which of them is newer.
func NewInstance() string {
	id, err := uuid.NewV7()
	if err != nil { // only when the random source fails
		return uuid.NewString()
	}
	return id.String()
}

// AdoptedBy reports whether what carries instance label other must be left
// alone by instance: a newer instance (create_before_destroy, an apply
// after a lost state) has taken it over. Older instances' objects, and
// those without an instance, are instance's to delete; "" as instance
// (no instance known) checks nothing.
func AdoptedBy(other, instance string) bool {
	return instance != "" && other != "" && other > instance
}
