package failure

import (
	"errors"
	"strings"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// ReasonTooLarge is the reason of an error that says a request or an
// object exceeds a size limit of the API server or its store: the
// request body above 3 MiB ("Request entity too large", 413), a field
// above its bound ("Too long", such as a Secret's data above 1 MiB), a
// write above etcd's request limit (~1.5 MiB). The same request is
// refused the same way every time, so such an error is terminal whatever
// else marked it: an apply that meets it fails at once instead of
// retrying a write that cannot succeed, and its user is told that
// another apply will fail the same way.
const ReasonTooLarge = "TooLarge"

// tooLargeTexts are the API server's and etcd's own words for a size
// limit, for an error whose status did not survive on its way here (a
// library that flattened it into text, a deployer that reported it as a
// message).
var tooLargeTexts = []string{
	"Request entity too large",
	"Too long: may not be more than",
	"Too long: must have at most",
	"etcdserver: request is too large",
	"trying to send message larger than max",
}

// IsTooLarge reports whether err says a request or object exceeds a
// size limit of the API server (ReasonTooLarge).
func IsTooLarge(err error) bool {
	if err == nil {
		return false
	}
	if apierrors.IsRequestEntityTooLargeError(err) {
		return true
	}
	var status apierrors.APIStatus
	if errors.As(err, &status) {
		if d := status.Status().Details; d != nil {
			for _, c := range d.Causes {
				if c.Type == metav1.CauseType(field.ErrorTypeTooLong) {
					return true
				}
			}
		}
	}
	msg := err.Error()
	for _, text := range tooLargeTexts {
		if strings.Contains(msg, text) {
			return true
		}
	}
	return false
}
