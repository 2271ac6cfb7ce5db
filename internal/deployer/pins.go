package deployer

import (
	"context"
	"fmt"
)

// A plan is checked by Terraform against a second plan made at the start
// of the apply, and that second plan sees only the state's private data
// (the one the plan's refresh wrote), never the plan's own. So what an
// item fetches from outside the configuration is resolved at refresh
// (SourceResolver), and both plans and the apply take exactly that:
// content that moved in between fails with a PinMovedError instead of
// being shown or deployed unseen.

// Pins are the SHA-256 digests (hex) of what a deploy item fetches from
// outside its configuration — a chart from a chart repository, an OCI
// registry or a URL — by a name of the source that says where from (a
// chart repository's URL, name and version; an OCI reference; a URL).
type Pins map[string]string

// SourceResolver is a Deployer that can say what Apply of an item would
// fetch now, without deploying anything.
type SourceResolver interface {
	// Resolve returns the digests of what Apply of item would fetch now;
	// nil when the item fetches nothing from outside its configuration.
	// It reaches only the sources item.Config names (the configuration an
	// apply already fetched from).
	Resolve(ctx context.Context, item Item) (Pins, error)
}

// PinMovedError says a source serves other content than the digest the
// plan was made with: the plan's preview or the apply stops before it
// deploys anything of the item.
type PinMovedError struct {
	Item   string
	Source string
	// Pinned is the digest the plan was made with, Served the digest of
	// what the source serves now.
	Pinned, Served string
}

func (e *PinMovedError) Error() string {
	return fmt.Sprintf("deploy item %s: %s now serves content of digest sha256:%s, not the sha256:%s this plan was made with; "+
		"nothing was deployed: run terraform plan again (with refresh) to see and approve what it serves now",
		e.Item, e.Source, e.Served, e.Pinned)
}

// CheckPin returns a PinMovedError when pins holds a digest for source
// other than served; nil when it holds none or the same.
func CheckPin(item string, pins Pins, source, served string) error {
	if pinned, ok := pins[source]; ok && source != "" && pinned != served {
		return &PinMovedError{Item: item, Source: source, Pinned: pinned, Served: served}
	}
	return nil
}
