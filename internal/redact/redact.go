// Package redact scrubs secrets from messages before they reach a
// diagnostic, a log line or a non-sensitive attribute such as
// deploy_item_errors. It knows two kinds of secrets: values the
// caller registers (kubeconfig credentials, Secret imports, sensitive
// attributes, Helm values) and credentials written into URLs.
package redact

import (
	"crypto/sha256"
	"net/url"
	"reflect"
	"sort"
	"strings"
	"sync"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/lazyregexp"
)

// Mask replaces every scrubbed secret.
const Mask = "<redacted>"

// minSecret is the shortest value registered as a secret: shorter strings
// ("true", "v1", a port) would mask half of every message and protect
// nothing.
const minSecret = 4

// Secrets is a set of secret strings. The zero value is empty and ready;
// it is safe for concurrent use.
type Secrets struct {
	mu     sync.RWMutex
	values map[string]bool
	sorted []string // longest first, so a secret containing another is masked whole
	// kubeconfigs are the SHA-256 sums of the kubeconfigs whose
	// credentials are registered: every refresh, plan and job of every
	// installation learns its targets again, and with one target shared
	// by many installations that was one YAML parse each time
	// (KubeconfigCredentials).
	kubeconfigs map[[sha256.Size]byte]bool
	// writeOnly are the forms of write-only values (AddWriteOnly): they
	// are masked also where other secrets must stay (private state, the
	// inventory's kept snapshot).
	writeOnly map[string]bool
	// bools are the key paths of sensitive booleans (AddValueAt).
	bools [][]string
}

// Add registers secret strings; each line of a multi-line value counts
// on its own too, since messages often quote one line.
func (s *Secrets) Add(values ...string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.values == nil {
		s.values = map[string]bool{}
	}
	added := false
	for _, v := range values {
		added = s.addLocked(v) || added
		if strings.Contains(v, "\n") {
			for _, line := range strings.Split(v, "\n") {
				added = s.addLocked(strings.TrimSpace(line)) || added
			}
		}
	}
	if !added {
		return // known already: the order stands
	}
	s.sorted = s.sorted[:0]
	for v := range s.values {
		s.sorted = append(s.sorted, v)
	}
	sort.Slice(s.sorted, func(i, j int) bool {
		if len(s.sorted[i]) != len(s.sorted[j]) {
			return len(s.sorted[i]) > len(s.sorted[j])
		}
		return s.sorted[i] < s.sorted[j]
	})
}

// addLocked registers v in every form a text may hold it in (textForms)
// and reports whether one was new.
func (s *Secrets) addLocked(v string) bool {
	if len(v) < minSecret {
		return false
	}
	added := false
	for _, f := range textForms(v) {
		if !s.values[f] {
			s.values[f], added = true, true
		}
	}
	return added
}

// AddValue registers every scalar inside v (map values and list elements,
// at any depth): a Secret import, Helm values or a target's config,
// decoded from JSON or YAML. A string counts as itself; a number in every
// text form a message may print it in (scalarForms); a boolean not at all,
// since it carries one bit and masking "true" would hide every "true" of
// every message. Each form shorter than minSecret is left out, as short
// strings are.
func (s *Secrets) AddValue(v any) {
	var out []string
	var walk func(any)
	walk = func(v any) {
		switch x := v.(type) {
		case nil, bool:
		case string:
			out = append(out, x)
		case []byte:
			out = append(out, string(x))
		case map[string]any:
			for _, e := range x {
				walk(e)
			}
		case map[string]string:
			for _, e := range x {
				out = append(out, e)
			}
		case []any:
			for _, e := range x {
				walk(e)
			}
		default:
			if forms, ok := scalarForms(v); ok {
				out = append(out, forms...)
				return
			}
			walkReflect(reflect.ValueOf(v), walk)
		}
	}
	walk(v)
	s.Add(out...)
}

// Len is the number of registered secrets.
func (s *Secrets) Len() int {
	if s == nil {
		return 0
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	return len(s.values)
}

// Values returns the registered secrets, longest first: for masking that
// needs the values themselves (a plan's preview replaces each with a
// versioned marker, package preview), so that every value registered
// here is masked there too.
func (s *Secrets) Values() []string {
	if s == nil {
		return nil
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	return append([]string(nil), s.sorted...)
}

// String returns msg with every registered secret, every URL credential
// and the values other programs' errors quote (QuotedValues) masked. A nil
// Secrets masks URL credentials and quoted values only.
func (s *Secrets) String(msg string) string {
	if s != nil {
		s.mu.RLock()
		for _, v := range s.sorted {
			if strings.Contains(msg, v) {
				msg = strings.ReplaceAll(msg, v, Mask)
			}
		}
		s.mu.RUnlock()
	}
	return QuotedValues(URLs(msg))
}

// urlPattern finds URLs with a scheme in free text.
var urlPattern = lazyregexp.New(`[a-zA-Z][a-zA-Z0-9+.-]*://[^\s"'<>]+`)

// URLPasswords masks the password (or the token a user without password
// is) of every URL in v, and nothing else: for data, where a query string
// is what the user wrote.
func URLPasswords(v string) string {
	if !hasURLUserinfo(v) {
		return v
	}
	return urlPattern().ReplaceAllStringFunc(v, func(raw string) string {
		u, err := url.Parse(raw)
		if err != nil || u.User == nil {
			return raw
		}
		if _, has := u.User.Password(); has {
			u.User = url.UserPassword(u.User.Username(), "xxxxx")
		} else {
			u.User = url.User("xxxxx")
		}
		return u.String()
	})
}

// hasURLUserinfo says whether some "://" in v is followed by an "@"
// before the end of the URL urlPattern would match there (a character of
// \s"'<>): only such a URL can carry a user, so without one URLPasswords
// returns v as it is. It is the fast path for big data (a chart's CRDs
// hold both "://" and "@" in unrelated places, and the regular expression
// over 1.5 MB cost more than the rest of the masking, issue 34 item 9).
// It is linear: a "://" inside a run already scanned ends in the same
// place, so the next search starts where the last run ended.
func hasURLUserinfo(v string) bool {
	for i := 0; i < len(v); {
		at := strings.Index(v[i:], "://")
		if at < 0 {
			return false
		}
		i += at + len("://")
		end := strings.IndexAny(v[i:], " \t\n\f\r\"'<>")
		if end < 0 {
			end = len(v) - i
		}
		if strings.IndexByte(v[i:i+end], '@') >= 0 {
			return true
		}
		i += end
	}
	return false
}

// HasURLPassword says whether v holds a URL with credentials.
func HasURLPassword(v string) bool { return URLPasswords(v) != v }

// URLs masks the password of every URL in msg (url.Redacted) and drops
// its query string, which often carries tokens (signed URLs).
func URLs(msg string) string {
	if !strings.Contains(msg, "://") {
		return msg
	}
	return urlPattern().ReplaceAllStringFunc(msg, func(raw string) string {
		u, err := url.Parse(raw)
		if err != nil {
			// Unparseable: keep scheme and host-ish prefix only.
			scheme, rest, _ := strings.Cut(raw, "://")
			if at := strings.LastIndex(rest, "@"); at >= 0 {
				rest = Mask + rest[at:]
			}
			if q := strings.IndexAny(rest, "?#"); q >= 0 {
				rest = rest[:q]
			}
			return scheme + "://" + rest
		}
		if u.User != nil {
			if _, has := u.User.Password(); has {
				u.User = url.UserPassword(u.User.Username(), "xxxxx")
			} else {
				// A user without password is usually a token.
				u.User = url.User("xxxxx")
			}
		}
		if u.RawQuery != "" || u.ForceQuery {
			u.RawQuery, u.ForceQuery = "", false
			return u.Redacted() + "?" + Mask
		}
		u.Fragment, u.RawFragment = "", ""
		return u.Redacted()
	})
}
