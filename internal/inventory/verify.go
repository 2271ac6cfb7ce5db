package inventory

import (
	"context"
	"errors"
	"fmt"
	"strings"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/dynamic"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
)

// A parent is found by its name alone (ParentName), which anyone who may
// write Secrets in the namespace can predict, and what it records decides
// what a job that starts from a lost state deletes. So a parent is used
// only when everything about it says it is this installation's: the
// Secret's type, labels and annotations as this package writes them, the
// record's installation and instance, and every item an item of the
// installation's tree. One that is not is ignored — nothing it lists is
// rebuilt, adopted or deleted — and reported (Ignored). Deployers check
// the objects themselves too: what a rebuilt provider status names is
// deleted only when it carries the item's owner label
// (deployer.Item.Rebuilt).

// errUnsupportedVersion is a record of another record version: a newer
// provider wrote it, so it must not be overwritten or ignored.
var errUnsupportedVersion = errors.New("record version is not supported")

// parentRead is what reading a parent gave.
type parentRead struct {
	rec Record
	// instance is the instance label of the Secret (the record's owner).
	instance string
	// exists: there is a Secret of the parent's name, with this UID.
	exists bool
	uid    types.UID
	// ignored says why that Secret is not this installation's parent;
	// "" when it is. An ignored parent records nothing.
	ignored string
	// raw is the record's uncompressed JSON and signature the Secret's
	// signature of it (sign.go), "" when it has none.
	raw       []byte
	signature string
	// parts are the part Secrets of the parent's name that exist (those
	// of a split record and any a failed write left behind); nil when the
	// record is not split, and they were not listed.
	parts map[string]bool
}

// verify checks f's record against its signature under key in the
// cluster of identity cluster (Verify), with an error for the action's
// user naming the Secret.
func (f parentRead) verify(key []byte, cluster, namespace, name string) error {
	if err := Verify(key, cluster, namespace, name, f.raw, f.signature); err != nil {
		return signatureError(namespace, name, err)
	}
	return nil
}

// fetch reads the parent name of root installation root in namespace.
func fetch(ctx context.Context, client dynamic.ResourceInterface, namespace, name, root string) (parentRead, error) {
	u, err := client.Get(ctx, name, metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		return parentRead{}, nil
	}
	if err != nil {
		return parentRead{}, fmt.Errorf("reading the installation inventory %s/%s: %w", namespace, name, err)
	}
	var s corev1.Secret
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(u.Object, &s); err != nil {
		return parentRead{exists: true, uid: u.GetUID(), ignored: "it is not a Secret: " + err.Error()}, nil //nolint:nilerr // ignored and reported, not a failure
	}
	f := parentRead{exists: true, uid: s.UID, instance: s.Labels[deployer.InstanceLabel]}
	if why := foreignSecret(&s, root); why != "" {
		f.ignored = why
		return f, nil
	}
	rec, raw, err := readRecordBytes(&s)
	switch {
	case errors.Is(err, errUnsupportedVersion):
		return f, err
	case err != nil:
		f.ignored = "its record cannot be read: " + err.Error()
		return f, nil //nolint:nilerr // ignored and reported, not a failure
	}
	if rec.Version == splitRecordVersion {
		pr, err := readParts(ctx, client, name, rec)
		f.parts = pr.existing
		switch {
		case errors.Is(err, errUnreadable):
			f.ignored = "its record cannot be read: " + err.Error()
			return f, nil
		case err != nil:
			return parentRead{}, err
		}
		rec.Items = pr.items
		if pr.kept != nil {
			rec.Kept = pr.kept
		}
	}
	if why := foreignRecord(rec, f.instance, root); why != "" {
		f.ignored = why
		return f, nil
	}
	f.rec, f.raw, f.signature = rec, raw, string(s.Data[signatureKey])
	return f, nil
}

// foreignSecret says why s is not the parent Secret of root as this
// package writes it (contentLabels, annotations); "" when it is.
func foreignSecret(s *corev1.Secret, root string) string {
	switch {
	case s.Type != secretType:
		return fmt.Sprintf("its type is %q, not %q", s.Type, secretType)
	case s.Labels[IDLabel] != ApplySetID(s.Name, s.Namespace):
		return fmt.Sprintf("its label %s is not the ApplySet ID of its name and namespace", IDLabel)
	case s.Labels[deployer.InstanceLabel] == "":
		return fmt.Sprintf("it has no label %s", deployer.InstanceLabel)
	case s.Annotations[ToolingAnnotation] != Tooling:
		return fmt.Sprintf("its annotation %s is not %q", ToolingAnnotation, Tooling)
	case s.Annotations[InstallationAnnotation] != root:
		return fmt.Sprintf("its annotation %s does not name installation %q", InstallationAnnotation, root)
	}
	return ""
}

// foreignRecord says why rec, found in a Secret labeled with instance,
// is not a record of root; "" when it is.
func foreignRecord(rec Record, instance, root string) string {
	switch {
	case rec.Installation != root:
		return fmt.Sprintf("its record names installation %q, not %q", rec.Installation, root)
	case rec.Instance != instance:
		return fmt.Sprintf("its record names instance %q, its label %s %q", rec.Instance, deployer.InstanceLabel, instance)
	}
	seen := make(map[string]bool, len(rec.Items))
	for _, it := range rec.Items {
		switch {
		case it.Name == "" || strings.Contains(it.Name, "/") || !strings.HasSuffix(it.ID, "/"+it.Name):
			return fmt.Sprintf("its item %q does not end in its name %q", it.ID, it.Name)
		case !strings.HasPrefix(it.ID, root+"/"):
			return fmt.Sprintf("its item %q is not an item of installation %q", it.ID, root)
		case it.Type == "":
			return fmt.Sprintf("its item %q has no type", it.ID)
		case seen[it.ID]:
			return fmt.Sprintf("it records item %q twice", it.ID)
		}
		seen[it.ID] = true
	}
	return ""
}

// ignoredMessage reports a parent that was ignored.
func ignoredMessage(namespace, name, why string) string {
	return fmt.Sprintf("The Secret %s/%s has the name of this installation's inventory but is not one it wrote (%s). "+
		"It was ignored: nothing it lists was rebuilt or deleted. An apply that deploys to the cluster replaces it with "+
		"the installation's own record; if someone planted it, find out who may write Secrets in that namespace.",
		namespace, name, why)
}

// replaceIgnored deletes the Secret of uid that holds the parent's name
// but was ignored, before the parent is first written: writing over it
// would keep what it holds besides the record (labels, annotations, other
// keys), and a Secret of another type cannot be changed into a parent.
// The name is this installation's (ParentName); nothing the Secret
// listed is acted on.
func (p *parent) replaceIgnored(ctx context.Context, uid types.UID) error {
	err := p.client.Delete(ctx, p.name, metav1.DeleteOptions{Preconditions: &metav1.Preconditions{UID: &uid}})
	if err != nil && !apierrors.IsNotFound(err) {
		return fmt.Errorf("replacing the Secret %s/%s, which is not this installation's inventory: %w", p.namespace, p.name, err)
	}
	return nil
}
