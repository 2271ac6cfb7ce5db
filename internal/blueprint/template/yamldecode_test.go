package template

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	yaml "go.yaml.in/yaml/v2"
	sigsyaml "sigs.k8s.io/yaml"
)

// decodeYAMLOracle is how decodeYAML decoded before its one walk: YAML to
// JSON text with sigs.k8s.io/yaml, then DecodeJSON. decodeYAML must give
// exactly its results and errors.
func decodeYAMLOracle(data []byte, out any) error {
	j, err := sigsyaml.YAMLToJSON(data)
	if err != nil {
		return err
	}
	return DecodeJSON(j, out)
}

// yamlDecodeCases are YAML 1.1's surprises and what JSON cannot hold.
var yamlDecodeCases = map[string]string{
	"empty":            "",
	"only marker":      "---\n",
	"explicit end":     "--- \n...\n",
	"null doc":         "~",
	"null word":        "null",
	"plain map":        "a: 1\nb: x\nc: [1, 2]\n",
	"yes no on off":    "a: yes\nb: no\nc: on\nd: off\ne: y\nf: n\ng: True\nh: FALSE\n",
	"int forms":        "octal: 0777\no: 0o17\nhex: 0x1F\nbin: 0b101\nunderscore: 1_000\nplus: +12\nneg: -0\n",
	"float forms":      "a: 1e3\nb: 1.0\nc: 0.1\nd: 1e21\ne: 1e20\nf: -0.0\ng: 1e-7\nh: 123456789012345678901\ni: 6.02e+23\nj: .5\nk: 2.5e-300\n",
	"float limits":     "a: 1e308\nb: 4.9e-324\nc: 9223372036854775807.0\nd: 9223372036854775808.0\ne: -9223372036854775808.0\n",
	"inf":              "a: .inf\n",
	"negative inf":     "a: [1, -.Inf]\n",
	"nan":              "a: {b: .NaN}\n",
	"float overflow":   "a: 1e400\n",
	"big ints":         "a: 9223372036854775807\nb: 9223372036854775808\nc: 18446744073709551615\nd: 18446744073709551616\ne: -9223372036854775809\nf: 99999999999999999999999\n",
	"non-string keys":  "1: a\n2.5: b\ntrue: c\n0x10: d\n1e3: e\n.inf: f\n-.inf: g\n.nan: h\n7.0: i\n0.1: j\n3.14159265358979: k\nno: l\n",
	"big int key":      "9223372036854775807: a\n",
	"null key":         "~: a\n",
	"uint64 key":       "18446744073709551615: a\n",
	"float key beyond": "1e300: a\n",
	"list key":         "[1]: a\n",
	"map key":          "{a: 1}: b\n",
	"complex key":      "? complex\n: value\n",
	"nested bad key":   "a:\n  - b:\n      ~: 1\n",
	"anchors":          "a: &x {b: 1, c: [1, 2]}\nd: *x\ne:\n  <<: *x\n  c: 3\n",
	"merge list":       "base: &b {x: 1, y: 0}\nother: &o {y: 2}\nm:\n  <<: [*o, *b]\n  z: 3\n",
	"nested lists":     "- [1, [2, [3, []]]]\n- {}\n- []\n- [{}]\n",
	"block scalars":    "a: |\n  line1\n  line2\nb: >\n  folded\n  text\nc: |-\n  strip\nd: |+\n  keep\n\n",
	"tags":             "a: !!str 123\nb: !!binary aGVsbG8=\nc: !!float 1\nd: !!int 010\ne: !custom x\nf: !!null ''\ng: !!bool yes\n",
	"binary not utf-8": "a: !!binary /w==\nb: ok\n",
	"binary key":       "? !!binary /w==\n: a\n",
	"bad float tag":    "a: !!float x\n",
	"timestamps":       "t: 2001-12-14t21:59:43.10-05:00\nd: 2002-12-14\ne: !!timestamp 2002-12-14\n",
	"multi doc":        "a: 1\n---\nb: 2\n",
	"leading empty":    "---\n---\na: 1\n",
	"top int":          "42",
	"top string":       "hello",
	"top list":         "- a\n- b\n",
	"top float":        "1.5",
	"top big":          "18446744073709551615",
	"top inf":          ".inf",
	"duplicate keys":   "a: 1\na: 2\n",
	"json":             `{"a": [1, 2.5, "x", null, true, 1e3], "b": {"c": "d"}, "e": -1.5e-10}`,
	"syntax error":     "a: [\n",
	"tab indent":       "a:\n\tb: 1\n",
	"bad alias":        "a: *nope\n",
	"escapes":          "a: \"\\xff \\u00e9 \\t \\\\\"\nb: '<b>&</b>'\nc: \"\\u2028\"\n",
	"empty values":     "a:\nb: ''\nc: []\nd: {}\n",
	"deep via alias":   deepYAML(5000, 5001),
	"deep at limit":    deepYAML(5000, 4999),
}

// deepYAML nests an anchored list outer levels deep in another inner
// levels deep, beyond what yaml.v2's parser alone allows.
func deepYAML(inner, outer int) string {
	return "a: &a " + strings.Repeat("[", inner) + strings.Repeat("]", inner) + "\n" +
		"b: " + strings.Repeat("[", outer) + "*a" + strings.Repeat("]", outer) + "\n"
}

func TestDecodeYAML_matchesJSONRoundTrip(t *testing.T) {
	for name, text := range yamlDecodeCases {
		t.Run(name, func(t *testing.T) {
			if ambiguousYAMLKeys([]byte(text)) {
				t.Fatal("the case's result depends on map order: leave it out")
			}
			checkDecodeYAML(t, []byte(text))
		})
	}
}

// The one walk itself handles what template output holds; only what the
// round trip refuses or alters goes the old way.
func TestDecodeYAML_onewalkCoversOrdinaryValues(t *testing.T) {
	for _, name := range []string{"plain map", "yes no on off", "int forms", "float forms", "float limits", "big ints",
		"non-string keys", "anchors", "merge list", "nested lists", "block scalars", "tags", "timestamps", "json",
		"escapes", "empty values", "deep at limit", "top int", "top big"} {
		doc, err := parseYAML([]byte(yamlDecodeCases[name]))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if _, ok := jsonValue(doc, 0); !ok {
			t.Errorf("%s: left to the JSON round trip", name)
		}
	}
	for _, name := range []string{"inf", "nan", "null key", "binary not utf-8", "deep via alias"} {
		doc, _ := parseYAML([]byte(yamlDecodeCases[name]))
		if _, ok := jsonValue(doc, 0); ok {
			t.Errorf("%s: converted, though the round trip refuses or alters it", name)
		}
	}
}

// checkDecodeYAML decodes data into each form of out the callers use (and
// a non-empty map, which DecodeJSON merges into) by both ways.
func checkDecodeYAML(t *testing.T, data []byte) {
	t.Helper()
	outs := []struct {
		name string
		make func() any
	}{
		{"empty map", func() any { m := map[string]any{}; return &m }},
		{"nil map", func() any { var m map[string]any; return &m }},
		{"filled map", func() any { m := map[string]any{"keep": "x", "a": "old"}; return &m }},
		{"interface", func() any { var v any; return &v }},
		{"filled interface", func() any { var v any = "old"; return &v }},
	}
	for _, o := range outs {
		got, want := o.make(), o.make()
		gotErr, wantErr := decodeYAML(data, got), decodeYAMLOracle(data, want)
		if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) {
			t.Fatalf("%s: error %v, the round trip's %v", o.name, gotErr, wantErr)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: got %#v, the round trip's %#v", o.name, deref(got), deref(want))
		}
	}
}

func deref(p any) any { return reflect.ValueOf(p).Elem().Interface() }

// ambiguousYAMLKeys says whether the round trip's result depends on map
// iteration order: two keys of a map become the same string (1 and "1"),
// or more than one key is refused (the error names the first met).
func ambiguousYAMLKeys(data []byte) bool {
	var doc any
	if yaml.Unmarshal(data, &doc) != nil {
		return false
	}
	refused := 0
	var walk func(v any) bool
	walk = func(v any) bool {
		switch x := v.(type) {
		case []any:
			for _, e := range x {
				if walk(e) {
					return true
				}
			}
		case map[any]any:
			seen := map[string]bool{}
			for k, e := range x {
				s, ok := sigsKeyString(k)
				if !ok {
					refused++
				} else if seen[s] {
					return true
				}
				seen[s] = true
				if walk(e) {
					return true
				}
			}
		}
		return false
	}
	return walk(doc) || refused > 1
}

// sigsKeyString is the key sigs.k8s.io/yaml makes of k, learnt from it
// through YAMLToJSON rather than from jsonKey.
func sigsKeyString(k any) (string, bool) {
	j, err := sigsyaml.YAMLToJSON(mustYAML(map[any]any{k: nil}))
	if err != nil {
		return "", false
	}
	var m map[string]any
	if DecodeJSON(j, &m) != nil || len(m) != 1 {
		return "", false
	}
	for s := range m {
		return s, true
	}
	return "", false
}

func mustYAML(v any) []byte {
	out, err := yaml.Marshal(v)
	if err != nil {
		return []byte("{")
	}
	return out
}

func FuzzDecodeYAML(f *testing.F) {
	for _, text := range yamlDecodeCases {
		f.Add([]byte(text))
	}
	f.Add([]byte("a: {1: x, '1': y}\nb: [{true: 1, 'true': 2, yes: 3}]\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		// The bound the callers apply first (and the fuzzer's time).
		// Inputs outside the comparison are passed over, not skipped: a
		// seed such as the alias crash's still runs CheckYAMLAliases.
		if len(data) > 1<<14 || CheckYAMLAliases("fuzz", data, 10000) != nil {
			return
		}
		if ambiguousYAMLKeys(data) {
			checkCollisionDeterministic(t, data)
			return
		}
		checkDecodeYAML(t, data)
	})
}

// checkCollisionDeterministic: where two keys of a map collide, every
// decode into every form of out fails with the same error, whatever the
// map order.
func checkCollisionDeterministic(t *testing.T, data []byte) {
	t.Helper()
	doc, err := parseYAML(data)
	if err != nil {
		return
	}
	want := keyCollision(doc, "")
	if want == nil {
		return // several refused keys, no collision: the round trip's error
	}
	for range 3 {
		for _, out := range []any{&map[string]any{}, &map[string]any{"keep": 1}, new(any)} {
			if err := decodeYAML(data, out); fmt.Sprint(err) != want.Error() {
				t.Fatalf("error %v, want %v", err, want)
			}
		}
	}
}

// benchYAMLDoc is rendered deploy-execution output: the provider
// benchmark's template at 50 items, with a few numbers and booleans.
func benchYAMLDoc() []byte {
	var b strings.Builder
	b.WriteString("deployItems:\n")
	for i := range 50 {
		fmt.Fprintf(&b, `- name: cm-%d
  type: landscaper.gardener.cloud/mock
  config:
    apiVersion: manifest.deployer.landscaper.gardener.cloud/v1alpha2
    kind: ProviderConfiguration
    updateStrategy: update
    manifests:
    - policy: manage
      manifest:
        apiVersion: v1
        kind: ConfigMap
        metadata: {name: "bench-cm-%d", namespace: bench, labels: {app: bench, tier: "%d"}}
        data: {index: "%d", replicas: %d, ratio: 0.%d, enabled: true}
`, i, i, i%3, i, i, i+1)
	}
	return []byte(b.String())
}

func BenchmarkDecodeYAML(b *testing.B) {
	doc := benchYAMLDoc()
	for _, c := range []struct {
		name   string
		decode func([]byte, any) error
	}{{"viaJSON", decodeYAMLOracle}, {"oneWalk", decodeYAML}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(doc)))
			for b.Loop() {
				out := map[string]any{}
				if err := c.decode(doc, &out); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
