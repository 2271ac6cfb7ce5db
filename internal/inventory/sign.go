package inventory

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"strings"
)

// A parent's record is signed by the resource instance that writes it:
// HMAC-SHA256 under the installation's reconcile key (which only the
// Terraform state holds, never a cluster) over the record's uncompressed
// JSON, bound to the cluster (cluster.go) and the Secret's namespace and
// name, kept under the
// Secret's key signatureKey. The landscaper_reconcile action applies
// what a record says with the targets' credentials, so it applies only
// records signed with the key it is given (Recorder.Verify): whoever may
// write Secrets in the namespace can delete or replace a record, but not
// make the action apply something this installation did not record.

// signatureKey is the Secret's data key of the record's signature.
const signatureKey = "signature"

// signatureDomain separates these MACs from any other use of the key.
// (v2: the MAC binds the cluster; a v1 signature does not verify, and the
// installation's next job signs the record again.)
const signatureDomain = "landscaper-terraform/inventory-record/v2"

// KeySize is the size of a reconcile key in bytes.
const KeySize = 32

// Signing errors: a record without a signature, and one whose signature
// does not match the key (altered, or signed with another key).
var (
	ErrUnsigned     = errors.New("the record is not signed")
	ErrBadSignature = errors.New("the record's signature does not match the installation's reconcile_key")
)

// newMAC is the MAC of a record of the parent namespace/name in the
// cluster of identity cluster (clusterIdentity): the record's bytes are
// written to it after this prefix. No part can run into another: a
// namespace and a name hold no "/" or NUL, a UID no NUL.
func newMAC(key []byte, cluster, namespace, name string) hash.Hash {
	mac := hmac.New(sha256.New, key)
	_, _ = mac.Write([]byte(signatureDomain + "\x00" + cluster + "\x00" + namespace + "/" + name + "\x00")) // never fails
	return mac
}

// Sign returns the signature of record (uncompressed JSON) in the parent
// namespace/name of cluster under key, hex-encoded as the Secret keeps it.
func Sign(key []byte, cluster, namespace, name string, record []byte) string {
	mac := newMAC(key, cluster, namespace, name)
	_, _ = mac.Write(record)
	return hex.EncodeToString(mac.Sum(nil))
}

// Verify checks signature (as the Secret keeps it) of record in the
// parent namespace/name of cluster under key: ErrUnsigned when there is
// none, ErrBadSignature when it does not match.
func Verify(key []byte, cluster, namespace, name string, record []byte, signature string) error {
	if strings.TrimSpace(signature) == "" {
		return ErrUnsigned
	}
	got, err := hex.DecodeString(signature)
	if err != nil {
		return ErrBadSignature
	}
	want, _ := hex.DecodeString(Sign(key, cluster, namespace, name, record)) // our own hex
	if !hmac.Equal(got, want) {
		return ErrBadSignature
	}
	return nil
}

// signatureError is the error of a record in namespace/name that failed
// verification, for the action's user: which Secret, why, and how it is
// signed again.
func signatureError(namespace, name string, err error) error {
	why := "it was signed by another Terraform workspace's instance of the installation (before an import), for another " +
		"cluster, or by a provider version that did not bind the cluster, or altered by someone who may write Secrets there"
	if errors.Is(err, ErrUnsigned) {
		why = "it was written by a provider build that did not sign records, or its signature was removed"
	}
	return fmt.Errorf("installation inventory %s/%s: %w: %s. landscaper_reconcile applies only records signed with the "+
		"installation's reconcile_key, so nothing was applied. The installation's next job signs its records again: run "+
		"`terraform apply` with a change of the landscaper_installation (any update that runs a job), then invoke the "+
		"action again", namespace, name, err, why)
}
