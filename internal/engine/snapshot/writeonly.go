package snapshot

import (
	"bytes"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/fingerprint"
)

// WriteOnlyMask stands in a stored deploy item configuration, or an
// export, for a value the provider was given write-only (imports.data_wo):
// such values are used to render and deploy but never stored, so the
// snapshot keeps this mask where they were.
//
// It is fingerprint.Marker: a configuration's fingerprint is the hash of
// its masked copy.
const WriteOnlyMask = fingerprint.Marker

// Masked reports whether the stored configuration of it had write-only
// values masked: it no longer says what was deployed, so a drift check
// cannot compare against it.
func (it *DeployItem) Masked() bool {
	return bytes.Contains(it.Config, []byte(WriteOnlyMask))
}
