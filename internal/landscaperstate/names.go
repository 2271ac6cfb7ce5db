package landscaperstate

import (
	"crypto/sha1" //nolint:gosec // Landscaper's naming scheme for DataObjects, not a security use
	"encoding/base32"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/lazyregexp"
)

// Landscaper's group version.
const (
	APIVersion = "landscaper.gardener.cloud/v1alpha1"
	Group      = "landscaper.gardener.cloud"
	Version    = "v1alpha1"
)

// Labels and annotations Landscaper's controllers write on their objects.
const (
	labelEncompassedBy     = "landscaper.gardener.cloud/encompassed-by"
	annSubinstallationName = "landscaper.gardener.cloud/subinstallation-name"
	labelExecManagedBy     = "execution.landscaper.gardener.cloud/managed-by"
	labelExecName          = "execution.landscaper.gardener.cloud/name"

	dataLabelPrefix   = "data.landscaper.gardener.cloud/"
	labelDOContext    = dataLabelPrefix + "context"
	labelDOSourceType = dataLabelPrefix + "sourceType"
	labelDOSource     = dataLabelPrefix + "source"
	labelDOKey        = dataLabelPrefix + "key"
	labelDOIndex      = dataLabelPrefix + "index"
	annDataObjectHash = dataLabelPrefix + "hash"
)

var dnsSubdomain = lazyregexp.New(`^([a-z0-9]|([a-z0-9][a-z0-9.-]*[a-z0-9]))$`)

// DataObjectName is the name of the DataObject (or Target) Landscaper
// keeps key under in a data context: in the root context ("") the key
// itself when it is a valid object name, else the lower-case unpadded
// base32 of SHA-1 over "context/key".
func DataObjectName(context, key string) string {
	if context == "" && dnsSubdomain().MatchString(key) {
		return key
	}
	sum := sha1.Sum([]byte(context + "/" + key)) //nolint:gosec // naming scheme
	return base32.NewEncoding("abcdefghijklmnopqrstuvwxyz234567").WithPadding(base32.NoPadding).EncodeToString(sum[:])
}
