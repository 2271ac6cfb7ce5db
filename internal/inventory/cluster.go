package inventory

import (
	"context"
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
)

// A record's signature binds the cluster it is written to, so that a
// record signed for one cluster does not verify in another one where
// someone copied it (same namespace and name): the cluster's identity is
// the UID of its kube-system namespace, which the API server gives every
// cluster once, at its creation, and nobody can set.
//
// Credentials that may not read that namespace (RBAC) sign and verify
// with no cluster identity: the signature then binds namespace and name
// only, as before. Whoever copies a record gains nothing from this — the
// verifying side reads the identity with its own credentials.

var namespaces = schema.GroupVersionResource{Version: "v1", Resource: "namespaces"}

// clusterIdentity reads the identity of the cluster of client: the UID
// of its kube-system namespace, "" when the credentials may not read it
// or it does not exist.
func clusterIdentity(ctx context.Context, client dynamic.Interface) (string, error) {
	ns, err := client.Resource(namespaces).Get(ctx, metav1.NamespaceSystem, metav1.GetOptions{})
	switch {
	case apierrors.IsForbidden(err) || apierrors.IsNotFound(err) || apierrors.IsUnauthorized(err):
		return "", nil
	case err != nil:
		return "", fmt.Errorf("reading the cluster's identity (namespace %s) for the inventory's signature: %w", metav1.NamespaceSystem, err)
	}
	return string(ns.GetUID()), nil
}
