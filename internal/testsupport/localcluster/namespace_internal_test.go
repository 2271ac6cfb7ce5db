package localcluster

import (
	"regexp"
	"strings"
	"testing"
)

var dnsLabel = regexp.MustCompile(`^[a-z0-9]([-a-z0-9]*[a-z0-9])?$`)

// TestNamespaceName_ValidDNSLabel proves that any test name yields a valid, unique namespace name.
func TestNamespaceName_ValidDNSLabel(t *testing.T) {
	for _, name := range []string{
		"TestApply", "TestApply/sub_test#01", "__", "",
		strings.Repeat("VeryLongTestName/", 10),
	} {
		got := namespaceName(name)
		if len(got) > 63 || !dnsLabel.MatchString(got) {
			t.Errorf("namespaceName(%q) = %q, not a DNS label", name, got)
		}
		if again := namespaceName(name); again == got {
			t.Errorf("namespaceName(%q) returned %q twice", name, got)
		}
	}
}
