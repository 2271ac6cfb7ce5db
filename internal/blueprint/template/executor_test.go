package template

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"testing/fstest"
)

func inline(typ, tmpl string) Execution {
	raw, _ := json.Marshal(tmpl)
	return Execution{Name: "t", Type: typ, Template: raw}
}

// TestGoTemplate_Bounded proves runaway templates fail instead of exhausting
// memory or recursing forever.
func TestGoTemplate_Bounded(t *testing.T) {
	files := fstest.MapFS{"self.tpl": {Data: []byte(`{{ include "self.tpl" . }}`)}}
	cases := map[string]struct{ tmpl, want string }{
		"huge output":       {`{{ $s := repeat 1000 "x" }}{{ range until 100000 }}{{ $s }}{{ end }}`, "rendered output exceeds"},
		"huge until":        {`{{ until 1000000000 }}`, "render limit exceeded"},
		"huge repeat":       {`{{ repeat 1000000000 "abc" }}`, "render limit exceeded"},
		"endless include":   {`{{ include "self.tpl" . }}`, "nested more than"},
		"env is removed":    {`{{ env "HOME" }}`, `"env" not defined`},
		"expandenv removed": {`{{ expandenv "$HOME" }}`, `"expandenv" not defined`},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			_, err := Run(Request{Kind: "deploy execution", Execution: inline(TypeGoTemplate, tc.tmpl), Files: files})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("want error containing %q, got %v", tc.want, err)
			}
			if !strings.Contains(err.Error(), `deploy execution "t"`) {
				t.Errorf("error does not name the execution: %v", err)
			}
		})
	}
}

// TestSpiff_Confined proves Spiff sees only the blueprint files and cannot
// run commands.
func TestSpiff_Confined(t *testing.T) {
	files := fstest.MapFS{"inside.txt": {Data: []byte("ok")}}
	res, err := Run(Request{Kind: "deploy execution", Execution: inline(TypeSpiff, `x: (( read("inside.txt", "text") ))`), Files: files})
	if err != nil || res.Output["x"] != "ok" {
		t.Fatalf("reading a blueprint file: %v %v", res.Output, err)
	}
	for name, tmpl := range map[string]string{
		"host file": `x: (( read("/etc/hostname", "text") ))`,
		"exec":      `x: (( exec("id") ))`,
		"pipe":      `x: (( pipe("x", "cat") ))`,
	} {
		t.Run(name, func(t *testing.T) {
			if _, err := Run(Request{Kind: "deploy execution", Execution: inline(TypeSpiff, tmpl), Files: files}); err == nil {
				t.Fatal("want an error")
			}
		})
	}
}

// TestRun_UnknownType proves an unknown template type is named in the error.
func TestRun_UnknownType(t *testing.T) {
	_, err := Run(Request{Kind: "deploy execution", Execution: Execution{Name: "x", Type: "Jinja"}})
	if err == nil || !strings.Contains(err.Error(), `"Jinja"`) {
		t.Fatalf("got %v", err)
	}
}

// TestGoTemplate_ImportExecutionsAllowNoValue proves "<no value>" is only
// rejected where Landscaper rejects it (not in import executions).
func TestGoTemplate_ImportExecutionsAllowNoValue(t *testing.T) {
	ex := inline(TypeGoTemplate, `bindings: {x: "{{ .imports.missing }}"}`)
	if _, err := Run(Request{Kind: "import execution", Execution: ex, Values: map[string]any{"imports": map[string]any{}}}); err != nil {
		t.Fatal(err)
	}
	if _, err := Run(Request{Kind: "deploy execution", Execution: ex, RejectNoValue: true, Values: map[string]any{"imports": map[string]any{}}}); err == nil {
		t.Fatal("deploy execution accepted <no value>")
	}
}

// TestBoundedSequence_Table proves until/untilStep keep Sprig's semantics.
func TestBoundedSequence_Table(t *testing.T) {
	cases := []struct {
		start, stop, step int
		want              string
	}{
		{0, 3, 1, "[0 1 2]"},
		{0, -3, -1, "[0 -1 -2]"},
		{0, 10, 4, "[0 4 8]"},
		{5, 0, 1, "[]"},
		{0, 5, 0, "[]"},
	}
	for _, tc := range cases {
		got, err := boundedSequence(tc.start, tc.stop, tc.step)
		if err != nil || fmt.Sprint(got) != tc.want {
			t.Errorf("untilStep %d %d %d = %v, %v; want %s", tc.start, tc.stop, tc.step, got, err, tc.want)
		}
	}
}

// TestClusterFunctions_ParseButFail proves blueprints mentioning Landscaper's
// cluster functions parse, and calling one fails with its name.
func TestClusterFunctions_ParseButFail(t *testing.T) {
	unused := `x: {{ if false }}{{ getShootAdminKubeconfig "a" "b" 1 .t }}{{ end }}1`
	if _, err := Run(Request{Kind: "deploy execution", Execution: inline(TypeGoTemplate, unused)}); err != nil {
		t.Fatalf("unused call: %v", err)
	}
	for _, typ := range []string{TypeGoTemplate, TypeSpiff} {
		tmpl := `x: {{ getShootAdminKubeconfig "a" "b" 1 .t }}`
		if typ == TypeSpiff {
			tmpl = `x: (( getShootAdminKubeconfig("a", "b", 1, "t") ))`
		}
		_, err := Run(Request{Kind: "deploy execution", Execution: inline(typ, tmpl)})
		if err == nil || !strings.Contains(err.Error(), "getShootAdminKubeconfig: needs cluster access, which only export executions have") {
			t.Errorf("%s: got %v", typ, err)
		}
	}
}

// TestGoTemplate_YAMLErrorsQuoteNoValues proves a rendered output that is
// not YAML is reported with its line and rule, not its content.
func TestGoTemplate_YAMLErrorsQuoteNoValues(t *testing.T) {
	for _, tmpl := range []string{
		"a: 1\n{{ .imports.secret }}: [x\n",
		"{ {{ .imports.secret }}: 1 }: x\n",
		"x: @{{ .imports.secret }}\n",
	} {
		_, err := Run(Request{Kind: "deploy execution", Execution: inline(TypeGoTemplate, tmpl),
			Values: map[string]any{"imports": map[string]any{"secret": "s3cr3t-v4lue"}}})
		if err == nil {
			t.Fatalf("%q rendered", tmpl)
		}
		if strings.Contains(err.Error(), "s3cr3t") {
			t.Errorf("error quotes the value: %v", err)
		}
		if !strings.Contains(err.Error(), "not a YAML object") {
			t.Errorf("error does not say what is wrong: %v", err)
		}
	}
}

// TestGoTemplate_YAMLErrorShowsTheRenderedLines: a YAML error in the
// rendered output shows the failing line and its neighbours as rendered,
// with the keys the template spells out and every value masked, so the
// author sees where the output broke without any value (also one a key
// was rendered from) in the message.
func TestGoTemplate_YAMLErrorShowsTheRenderedLines(t *testing.T) {
	tmpl := "deployItems:\n- name: app\n  config:\n    password: {{ .imports.secret }}\n    {{ .imports.secret }}: x\n    broken: [unclosed\n  other: 1\n"
	_, err := Run(Request{Kind: "deploy execution", Execution: inline(TypeGoTemplate, tmpl),
		Values: map[string]any{"imports": map[string]any{"secret": "s3cr3t-v4lue"}}})
	if err == nil {
		t.Fatal("rendered")
	}
	msg := err.Error()
	if strings.Contains(msg, "s3cr3t") || strings.Contains(msg, "unclosed") {
		t.Fatalf("error quotes a value: %v", msg)
	}
	for _, want := range []string{"rendered output, lines ", "(values masked)", "|     password: …", "|     …: …", "|     broken: …"} {
		if !strings.Contains(msg, want) {
			t.Errorf("error lacks %q:\n%s", want, msg)
		}
	}
}

// TestMaskYAMLLine: structure stays, values go.
func TestMaskYAMLLine(t *testing.T) {
	const tmpl = "key: {{ x }}\n- name: y\nlist:"
	for in, want := range map[string]string{
		"  key: value":        "  key: …",
		"- name: app":         "- name: …",
		"list:":               "list:",
		"  - item":            "  - …",
		`  "quoted": x`:       "  …",
		"    plain text line": "    …",
		"unknownkey: v":       "…: …",
		"":                    "",
	} {
		if got := maskYAMLLine(in, tmpl); got != want {
			t.Errorf("maskYAMLLine(%q) = %q, want %q", in, got, want)
		}
	}
}
