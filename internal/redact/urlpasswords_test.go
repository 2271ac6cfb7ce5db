package redact

import (
	"net/url"
	"strings"
	"testing"
)

// urlPasswordsByPattern is URLPasswords without its fast path: the
// regular expression over every input, what the fast path must agree with.
func urlPasswordsByPattern(v string) string {
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

func TestURLPasswords_AgreesWithPattern(t *testing.T) {
	for _, v := range []string{
		"",
		"https://user:pw@example.com/x",
		"git+ssh://tok@host/repo and mail a@b.c",
		"see https://example.com/x and mail me@example.com",
		"https://example.com/x\"@quoted",
		"https://example.com/x'@",
		"https://example.com/x<a@b>",
		"http://a\t@b",
		"://@",
		"x://@",
		"1://u@h",
		"a://b://c@d e://f",
		"a://b c://d@e",
		"https://h/p?q=a@b",
		"https://ü:pw@host/ü",
		"https://h/\xff@x",
		"@ before https://example.com",
	} {
		if got, want := URLPasswords(v), urlPasswordsByPattern(v); got != want {
			t.Errorf("URLPasswords(%q) = %q, the pattern alone gives %q", v, got, want)
		}
	}
}

func FuzzURLPasswords_AgreesWithPattern(f *testing.F) {
	for _, s := range []string{"https://u:p@h/x", "a://b c@d", "x://y\n@z", "s://a'b@c"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, v string) {
		if got, want := URLPasswords(v), urlPasswordsByPattern(v); got != want {
			t.Errorf("URLPasswords(%q) = %q, the pattern alone gives %q", v, got, want)
		}
	})
}

// A chart's CRDs hold "://" (schema links) and "@" (e-mail addresses,
// annotations) far apart; such data, masked on every plan and state
// (shared.Security), must not go through the regular expression.
func TestURLPasswords_BigDataWithoutCredentialsAllocatesNothing(t *testing.T) {
	doc := strings.Repeat("description: see https://gateway.envoyproxy.io/docs/api for details\n"+
		"maintainer: someone@example.com\n", 2000)
	if got := URLPasswords(doc); got != doc {
		t.Fatalf("changed data without credentials")
	}
	if n := testing.AllocsPerRun(5, func() { _ = URLPasswords(doc) }); n != 0 {
		t.Errorf("URLPasswords allocated %v times per run on data without credentials; want 0", n)
	}
}
