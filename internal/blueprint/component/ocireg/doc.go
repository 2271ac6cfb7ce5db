// Package ocireg reads OCI artifacts for component versions: it resolves
// tags with oras-go, fetches manifests and blobs by digest, verifies them,
// and keeps them in a content-addressed cache on disk, so a component
// version once read is read again without the network.
//
// Credentials are looked up per registry host and never appear in errors
// or logs.
package ocireg
