package deployer

import "github.com/google/uuid"

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
