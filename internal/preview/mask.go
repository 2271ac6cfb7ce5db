package preview

import (
	"encoding/base64"
	"sort"
	"strconv"
	"strings"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/lazyregexp"
)

// lastApplied is kubectl's annotation that repeats a whole object, a
// Secret's data included.
const lastApplied = "kubectl.kubernetes.io/last-applied-configuration"

// masker masks the values of one object: a Secret's data entirely,
// registered sensitive values and URL credentials wherever they appear.
// Each masked value becomes a versioned marker (Marks) at its location:
// the object's key and the path to the value.
type masker struct {
	marks     *Marks
	sensitive *Sensitive
}

// isSecret reports whether obj is a core Secret, whose data and
// stringData are shown as keys with markers only.
func isSecret(r deployer.ObjectRef) bool { return r.APIVersion == "v1" && r.Kind == "Secret" }

// secretData folds a Secret's stringData into its data, as the API
// server does (stringData wins), and returns each key's plain value:
// data decoded from base64, or as written when it is no base64.
func secretData(obj map[string]any) map[string]string {
	out := map[string]string{}
	if data, ok := obj["data"].(map[string]any); ok {
		for k, v := range data {
			s, _ := v.(string)
			if b, err := base64.StdEncoding.DecodeString(s); err == nil {
				s = string(b)
			}
			out[k] = s
		}
	}
	if sd, ok := obj["stringData"].(map[string]any); ok {
		for k, v := range sd {
			s, _ := v.(string)
			out[k] = s
		}
	}
	delete(obj, "stringData")
	return out
}

// secretValue is the marker of a Secret's value at loc. A value the
// deployer marked as generated at apply is shown as such: it is no
// secret, and its marker would never change.
func (m *masker) secretValue(loc, plain string) string {
	if plain == deployer.Generated {
		return deployer.Generated
	}
	return m.marks.Marker(loc, plain)
}

// text returns s with every registered sensitive value and every URL
// credential replaced by its marker. Occurrences are numbered within s,
// so each keeps its own version.
func (m *masker) text(loc, s string) string {
	spans := merge(m.sensitive.find(s), urlSpans(s))
	if len(spans) == 0 {
		return s
	}
	var b strings.Builder
	at := 0
	for n, sp := range spans {
		b.WriteString(s[at:sp.start])
		b.WriteString(m.marks.Marker(loc+"\x00#"+strconv.Itoa(n), s[sp.start:sp.end]))
		at = sp.end
	}
	b.WriteString(s[at:])
	return b.String()
}

// merge orders spans by start and drops those that overlap an earlier
// (or, at one start, a longer) one.
func merge(a, b []span) []span {
	all := append(a, b...)
	if len(all) < 2 {
		return all
	}
	sort.Slice(all, func(i, j int) bool {
		if all[i].start != all[j].start {
			return all[i].start < all[j].start
		}
		return all[i].end > all[j].end
	})
	out := all[:0]
	end := 0
	for _, sp := range all {
		if sp.start >= end {
			out = append(out, sp)
			end = sp.end
		}
	}
	return out
}

// urlPattern finds URLs with a scheme in free text (as package redact does).
var urlPattern = lazyregexp.New(`[a-zA-Z][a-zA-Z0-9+.-]*://[^\s"'<>]+`)

// urlSpans are the credentials of the URLs in s: the password of the user
// information (or the user alone, which is usually a token) and the query
// (often a signed URL's token).
func urlSpans(s string) []span {
	if !strings.Contains(s, "://") {
		return nil
	}
	var out []span
	for _, u := range urlPattern().FindAllStringIndex(s, -1) {
		raw := s[u[0]:u[1]]
		head := u[0] + strings.Index(raw, "://") + 3
		rest := s[head:u[1]]
		authEnd := strings.IndexAny(rest, "/?#")
		if authEnd < 0 {
			authEnd = len(rest)
		}
		if at := strings.LastIndex(rest[:authEnd], "@"); at > 0 {
			if colon := strings.Index(rest[:at], ":"); colon >= 0 && colon+1 < at {
				out = append(out, span{head + colon + 1, head + at})
			} else if colon < 0 {
				out = append(out, span{head, head + at})
			}
		}
		tail := rest[authEnd:]
		if q := strings.Index(tail, "?"); q >= 0 {
			end := len(tail)
			if f := strings.Index(tail[q:], "#"); f >= 0 {
				end = q + f
			}
			if q+1 < end {
				base := head + authEnd
				out = append(out, span{base + q + 1, base + end})
			}
		}
	}
	return out
}
