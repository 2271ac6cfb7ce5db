package landscaperrecording

import (
	"context"
	"encoding/base64"
	"fmt"
	"sort"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/landscaperstate"
)

// RecordOptions say what to record.
type RecordOptions struct {
	// Meta describes the recording; its namespaces say where to read.
	// Roots is filled in from what is found.
	Meta Meta
	// Kubeconfigs are the kubeconfigs the landscape's Targets hold; each
	// is replaced by KubeconfigPlaceholder, and recording fails if a
	// credential of one remains anywhere.
	Kubeconfigs []string
}

// Record reads what Landscaper's controllers left in the cluster config
// points at: in the host namespace every object of Landscaper's group and
// every Secret, in the target namespace every object that no other object
// owns (what the deployers created and Helm's release records; not what
// Kubernetes' controllers made from them). Server-side bookkeeping
// (resourceVersion, creationTimestamp, the fields of managedFields) is
// dropped; UIDs, owner references, labels, annotations, finalizers and
// the host objects' status are kept as they are.
func Record(ctx context.Context, config *rest.Config, opts RecordOptions) (*Recording, error) {
	m := opts.Meta
	if m.HostNamespace == "" || m.TargetNamespace == "" || m.HostNamespace == m.TargetNamespace {
		return nil, fmt.Errorf("recording needs two different namespaces, host %q and target %q", m.HostNamespace, m.TargetNamespace)
	}
	config = rest.CopyConfig(config)
	config.QPS, config.Burst = -1, 0 // one list per resource and namespace; no reason to wait between them
	client, err := dynamic.NewForConfig(config)
	if err != nil {
		return nil, err
	}
	disc, err := discovery.NewDiscoveryClientForConfig(config)
	if err != nil {
		return nil, err
	}
	resources, err := listableResources(disc)
	if err != nil {
		return nil, err
	}
	rec := &Recording{Meta: m}
	for _, res := range resources {
		if res.Group == landscaperstate.Group || (res.Group == "" && res.Resource == "secrets") {
			objs, err := list(ctx, client, res, m.HostNamespace)
			if err != nil {
				return nil, err
			}
			for _, o := range objs {
				rec.Host = append(rec.Host, cleaned(o, true))
			}
		}
		if skippedInTarget[res] {
			continue
		}
		objs, err := list(ctx, client, res, m.TargetNamespace)
		if err != nil {
			return nil, err
		}
		for _, o := range objs {
			if len(o.GetOwnerReferences()) == 0 && !namespaceDefault(o) {
				rec.Target = append(rec.Target, cleaned(o, false))
			}
		}
	}
	rec.Meta.Roots = nil
	for _, o := range rec.Host {
		if o.GetKind() == "Installation" && o.GetLabels()[labelEncompassedBy] == "" {
			rec.Meta.Roots = append(rec.Meta.Roots, o.GetName())
		}
	}
	sort.Strings(rec.Meta.Roots)
	sortObjects(rec.Host)
	sortObjects(rec.Target)
	if err := redact(rec, opts.Kubeconfigs); err != nil {
		return nil, err
	}
	return rec, nil
}

// labelEncompassedBy marks a subinstallation with its parent's name.
const labelEncompassedBy = "landscaper.gardener.cloud/encompassed-by"

// skippedInTarget are kinds whose objects in the target namespace are
// made by Kubernetes, never by a deployer, and carry no owner reference.
var skippedInTarget = map[schema.GroupVersionResource]bool{
	{Version: "v1", Resource: "events"}:                         true,
	{Group: "events.k8s.io", Version: "v1", Resource: "events"}: true,
	{Version: "v1", Resource: "endpoints"}:                      true,
}

// namespaceDefault is what every namespace gets from Kubernetes.
func namespaceDefault(o *unstructured.Unstructured) bool {
	return (o.GetKind() == "ConfigMap" && o.GetName() == "kube-root-ca.crt") ||
		(o.GetKind() == "ServiceAccount" && o.GetName() == "default")
}

// listableResources are the namespaced resources that can be listed, in
// each group's preferred version.
func listableResources(disc discovery.DiscoveryInterface) ([]schema.GroupVersionResource, error) {
	lists, err := discovery.ServerPreferredNamespacedResources(disc)
	if err != nil {
		return nil, fmt.Errorf("discovering the cluster's resources: %w", err)
	}
	var out []schema.GroupVersionResource
	for _, l := range lists {
		gv, err := schema.ParseGroupVersion(l.GroupVersion)
		if err != nil {
			return nil, err
		}
		for _, r := range l.APIResources {
			if strings.Contains(r.Name, "/") || !hasVerb(r.Verbs, "list") {
				continue
			}
			out = append(out, gv.WithResource(r.Name))
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].String() < out[j].String() })
	return out, nil
}

func hasVerb(verbs metav1.Verbs, verb string) bool {
	for _, v := range verbs {
		if v == verb {
			return true
		}
	}
	return false
}

func list(ctx context.Context, client dynamic.Interface, res schema.GroupVersionResource, ns string) ([]*unstructured.Unstructured, error) {
	l, err := client.Resource(res).Namespace(ns).List(ctx, metav1.ListOptions{})
	if err != nil {
		return nil, fmt.Errorf("listing %s in %s: %w", res, ns, err)
	}
	out := make([]*unstructured.Unstructured, len(l.Items))
	for i := range l.Items {
		out[i] = &l.Items[i]
	}
	return out, nil
}

// cleaned drops what the API server keeps for itself. managedFields
// shrink to who wrote the object how (manager, operation, subresource).
func cleaned(o *unstructured.Unstructured, keepStatus bool) *unstructured.Unstructured {
	o = o.DeepCopy()
	for _, f := range []string{"resourceVersion", "creationTimestamp", "selfLink"} {
		unstructured.RemoveNestedField(o.Object, "metadata", f)
	}
	var managers []any
	for _, mf := range o.GetManagedFields() {
		entry := map[string]any{"manager": mf.Manager, "operation": string(mf.Operation), "apiVersion": mf.APIVersion}
		if mf.Subresource != "" {
			entry["subresource"] = mf.Subresource
		}
		managers = append(managers, entry)
	}
	unstructured.RemoveNestedField(o.Object, "metadata", "managedFields")
	if len(managers) > 0 {
		_ = unstructured.SetNestedSlice(o.Object, managers, "metadata", "managedFields")
	}
	if !keepStatus {
		delete(o.Object, "status")
	}
	return o
}

// redact replaces each kubeconfig by the placeholder and fails if a
// credential of one is still anywhere in the recording.
func redact(rec *Recording, kubeconfigs []string) error {
	var pairs []string
	var secrets []string
	for _, k := range kubeconfigs {
		pairs = append(pairs, k, KubeconfigPlaceholder)
		s, err := credentials(k)
		if err != nil {
			return err
		}
		secrets = append(secrets, s...)
	}
	replace := strings.NewReplacer(pairs...).Replace
	for _, o := range rec.Objects() {
		if err := mapStrings(o, replace); err != nil {
			return err
		}
		var leaked bool
		check := func(s string) string {
			for _, c := range secrets {
				leaked = leaked || strings.Contains(s, c)
			}
			return s
		}
		if err := mapStrings(o.DeepCopy(), check); err != nil {
			return err
		}
		if leaked {
			return fmt.Errorf("%s %s still holds a credential of the kubeconfig after redaction: not recorded", o.GetKind(), o.GetName())
		}
	}
	return nil
}

// credentials are the secret parts of a kubeconfig as they appear in its
// text: tokens, passwords and client keys (base64 in the text).
func credentials(kubeconfig string) ([]string, error) {
	cfg, err := clientcmd.Load([]byte(kubeconfig))
	if err != nil {
		return nil, fmt.Errorf("a kubeconfig to redact: %w", err)
	}
	var out []string
	for _, a := range cfg.AuthInfos {
		if a.Token != "" {
			out = append(out, a.Token)
		}
		if a.Password != "" {
			out = append(out, a.Password)
		}
		if len(a.ClientKeyData) > 0 {
			// As the kubeconfig holds it (base64 of the PEM) and as the PEM
			// holds it (its first line of base64).
			out = append(out, prefix(base64.StdEncoding.EncodeToString(a.ClientKeyData), 64))
			for _, line := range strings.Split(string(a.ClientKeyData), "\n") {
				if line != "" && !strings.HasPrefix(line, "-----") {
					out = append(out, prefix(line, 64))
					break
				}
			}
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("a kubeconfig to redact holds no credential: the leak check would check nothing")
	}
	return out, nil
}

func prefix(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s
}
