package deployer

// ObjectRef names one Kubernetes object: in a deploy item's target
// cluster (Result.Objects, a manifest deployer's provider status), in a
// preview, or on the host cluster (a running Landscaper's objects). The
// JSON form is the manifest deployer's provider status, as Landscaper's
// manifest deployer writes it.
type ObjectRef struct {
	// APIVersion is "apps/v1"; "v1" for the core group.
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Name       string `json:"name"`
	// Namespace is "" for a cluster-scoped object.
	Namespace string `json:"namespace,omitempty"`
	// UID is the object's UID when it is known (read from the cluster);
	// "" otherwise.
	UID string `json:"uid,omitempty"`
}

// RefOf names obj, an object as a map (apiVersion, kind and metadata's
// name, namespace and uid); what obj does not hold stays empty.
func RefOf(obj map[string]any) ObjectRef {
	md, _ := obj["metadata"].(map[string]any)
	str := func(m map[string]any, k string) string { s, _ := m[k].(string); return s }
	return ObjectRef{APIVersion: str(obj, "apiVersion"), Kind: str(obj, "kind"), Name: str(md, "name"),
		Namespace: str(md, "namespace"), UID: str(md, "uid")}
}

// Named is r without its UID: the object by name, as a configuration
// or a plan names it.
func (r ObjectRef) Named() ObjectRef {
	r.UID = ""
	return r
}

// String names the object for messages: "Kind namespace/name", or
// "Kind name" for a cluster-scoped object.
func (r ObjectRef) String() string {
	if r.Namespace == "" {
		return r.Kind + " " + r.Name
	}
	return r.Kind + " " + r.Namespace + "/" + r.Name
}

// Versioned is String with the apiVersion first ("apps/v1 Deployment
// ns/name"), since two API groups may have kinds of the same name: how a
// plan's text names each object (package preview).
func (r ObjectRef) Versioned() string {
	return r.APIVersion + " " + r.String()
}
