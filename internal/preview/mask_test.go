package preview

import (
	"encoding/base64"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
)

var testKey = []byte("0123456789abcdef0123456789abcdef")

func b64(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }

// secretObjects are an item's objects holding secrets: a Secret (data,
// stringData, kubectl's last-applied annotation) and a ConfigMap that
// repeats a registered sensitive value, its base64 form and a URL with
// credentials.
func secretObjects(password, token string) []deployer.PreviewObject {
	return []deployer.PreviewObject{
		{Object: map[string]any{"apiVersion": "v1", "kind": "Secret", "type": "Opaque",
			"metadata": map[string]any{"name": "creds", "namespace": "apps", "annotations": map[string]any{
				lastApplied: `{"stringData":{"password":"` + password + `"}}`}},
			"data":       map[string]any{"password": b64(password), "user": b64("admin")},
			"stringData": map[string]any{"token": token}}},
		{Object: map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": "app", "namespace": "apps"},
			"data": map[string]any{
				"app.conf": "user=admin\npassword=" + password + "\nport=5432\n",
				"encoded":  b64(password),
				"url":      "https://bob:" + token + "@git.example.com/repo.git?sig=" + token + "#main",
			}}},
	}
}

// TestMask_ValuesNeverAppear: no secret value, nor its base64 form, is
// in the text; a Secret's keys are; the rest of a masked line stays.
func TestMask_ValuesNeverAppear(t *testing.T) {
	const password, token = "hunter2-very-secret", "tok-1234567890"
	var s Sensitive
	s.Add(password) // a Secret import; the token is registered by nobody
	text := Join("", render(t, NewRenderer(NewMarks(testKey, nil, nil), &s), "root/app", secretObjects(password, token)...))
	for _, v := range []string{password, b64(password), token, b64(token), b64("admin")} {
		if strings.Contains(text, v) {
			t.Errorf("%q appears in\n%s", v, text)
		}
	}
	for _, want := range []string{
		"data:\n  password: (sensitive value v1)\n  token: (sensitive value v1)\n  user: (sensitive value v1)\n",
		lastApplied + ": (sensitive value v1)",
		"    password=(sensitive value v1)\n    port=5432\n",
		"encoded: (sensitive value v1)",
		"url: https://bob:(sensitive value v1)@git.example.com/repo.git?(sensitive value v1)#main",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("no %q in\n%s", want, text)
		}
	}
	if strings.Contains(text, "stringData") {
		t.Errorf("stringData is not folded into data:\n%s", text)
	}
}

// TestMarks_ChangeExactlyWhenValueChanges: with the marks recorded at the
// last apply, an unchanged value keeps its marker and a changed one gets
// the next version; changing it back is a change too.
func TestMarks_ChangeExactlyWhenValueChanges(t *testing.T) {
	var s Sensitive
	s.Add("hunter2-very-secret", "hunter3-very-secret")
	plan := func(prior map[string]Mark, password string) (map[string]string, map[string]Mark) {
		m := NewMarks(testKey, prior, nil)
		return render(t, NewRenderer(m, &s), "root/app", secretObjects(password, "tok-1234567890")...), m.Table()
	}
	first, table := plan(nil, "hunter2-very-secret")
	again, table2 := plan(table, "hunter2-very-secret")
	if !reflect.DeepEqual(first, again) || !reflect.DeepEqual(table, table2) {
		t.Fatalf("an unchanged value changed its marker:\n%v\n%v", first, again)
	}
	changed, table3 := plan(table, "hunter3-very-secret")
	c := Compare(first, changed)
	if len(c.Changed) != 2 || len(c.Added)+len(c.Removed) != 0 {
		t.Fatalf("changes = %+v", c)
	}
	secret := changed["root/app: v1 Secret apps/creds"]
	for _, want := range []string{"password: (sensitive value v2)", "token: (sensitive value v1)", "user: (sensitive value v1)"} {
		if !strings.Contains(secret, want) {
			t.Errorf("no %q in\n%s", want, secret)
		}
	}
	back, _ := plan(table3, "hunter2-very-secret")
	if !strings.Contains(back["root/app: v1 Secret apps/creds"], "password: (sensitive value v3)") {
		t.Errorf("changing back is no change:\n%s", back["root/app: v1 Secret apps/creds"])
	}
}

// TestMarks_RevealNothing: the marker is the same for any value at a new
// location, so a plan cannot be used to test guesses of a short secret;
// the recorded fingerprints differ by key.
func TestMarks_RevealNothing(t *testing.T) {
	const key = "root/app: v1 Secret apps/creds"
	a := render(t, NewRenderer(NewMarks(testKey, nil, nil), nil), "root/app", secretObjects("1234", "abcd")...)[key]
	b := render(t, NewRenderer(NewMarks(testKey, nil, nil), nil), "root/app", secretObjects("9999", "wxyz")...)[key]
	if a != b {
		t.Errorf("two values show differently:\n%v\n%v", a, b)
	}
	m1, m2 := NewMarks(testKey, nil, nil), NewMarks([]byte("another key, another installation"), nil, nil)
	m1.Marker("loc", "1234")
	m2.Marker("loc", "1234")
	if m1.Table()["loc"].Sum == m2.Table()["loc"].Sum {
		t.Error("fingerprints do not depend on the key")
	}
}

// TestMarks_CreateThenApply: a create's plan has no key; the apply, with
// the key drawn and no marks recorded, renders the same text, and the
// next plan with what the apply recorded too.
func TestMarks_CreateThenApply(t *testing.T) {
	objs := secretObjects("hunter2-very-secret", "tok-1234567890")
	planned := render(t, NewRenderer(NewMarks(nil, nil, nil), nil), "root/app", objs...)
	applyMarks := NewMarks(testKey, nil, nil)
	applied := render(t, NewRenderer(applyMarks, nil), "root/app", objs...)
	next := render(t, NewRenderer(NewMarks(testKey, applyMarks.Table(), nil), nil), "root/app", objs...)
	if !reflect.DeepEqual(planned, applied) || !reflect.DeepEqual(applied, next) {
		t.Errorf("create plan, apply and next plan differ:\n%v\n%v\n%v", planned, applied, next)
	}
	// Marks recorded without a key cannot be compared: the next version,
	// never a hidden change.
	m := NewMarks(testKey, map[string]Mark{"loc": {Version: 4}}, nil)
	if got := m.Marker("loc", "v"); got != "(sensitive value v5)" {
		t.Errorf("marker = %q", got)
	}
}

// TestMarks_Keep: an item the plan does not render keeps its marks, and
// only its own.
func TestMarks_Keep(t *testing.T) {
	prior := map[string]Mark{
		"root/a: v1 Secret s\x00data\x00k":  {Sum: "1", Version: 2},
		"root/ab: v1 Secret s\x00data\x00k": {Sum: "2", Version: 3},
	}
	m := NewMarks(testKey, prior, nil)
	m.Keep("root/a")
	if got := m.Table(); !reflect.DeepEqual(got, map[string]Mark{"root/a: v1 Secret s\x00data\x00k": {Sum: "1", Version: 2}}) {
		t.Errorf("table = %v", got)
	}
}

// TestMask_Generated: a value the deployer generates at apply is shown as
// such, in data (plain or base64) and elsewhere.
func TestMask_Generated(t *testing.T) {
	obj := deployer.PreviewObject{Object: map[string]any{"apiVersion": "v1", "kind": "Secret", "metadata": map[string]any{"name": "s"},
		"data": map[string]any{"a": b64(deployer.Generated), "b": deployer.Generated}}}
	text := render(t, NewRenderer(nil, nil), "root/app", obj)["root/app: v1 Secret s"]
	if !strings.Contains(text, "a: "+deployer.Generated+"\n  b: "+deployer.Generated+"\n") {
		t.Errorf("got\n%s", text)
	}
}

// TestSensitive: lines of multi-line values and base64 forms count; short
// values do not; the longest match wins.
func TestSensitive(t *testing.T) {
	var s Sensitive
	s.Add("abc", "line-one\nline-two", "secret", "secret-longer")
	cases := map[string][]span{
		"x abc y":              nil,
		"line-two":             {{0, 8}},
		"a secret-longer b":    {{2, 15}},
		b64("secret") + "|":    {{0, len(b64("secret"))}},
		"secretsecret":         {{0, 6}, {6, 12}},
		"no match at all here": nil,
	}
	for in, want := range cases {
		if got := s.find(in); !reflect.DeepEqual(got, want) {
			t.Errorf("find(%q) = %v, want %v", in, got, want)
		}
	}
	var nilSet *Sensitive
	if nilSet.find("secret") != nil {
		t.Error("a nil set found something")
	}
	var v Sensitive
	v.AddValue(map[string]any{"a": []any{"nested-secret", 12}})
	if len(v.find("the nested-secret")) != 1 {
		t.Error("AddValue missed a nested string")
	}
}

// TestMask_Numbers: a Secret import's number ({"pin": 73920184}) put into
// a numeric field is masked whole, whatever type the decoder gave it
// (json.Number, float64, int64, int); so are its quoted and base64 forms
// in strings. Other numbers, and short ones, stay.
func TestMask_Numbers(t *testing.T) {
	var s Sensitive
	// What redact.Secrets.AddValue registers of the number, as the
	// provider hands it over (redact.Secrets.Values).
	s.Add("73920184", "7.3920184e+07")
	obj := deployer.PreviewObject{Object: map[string]any{"apiVersion": "apps/v1", "kind": "Deployment",
		"metadata": map[string]any{"name": "app", "namespace": "apps"},
		"spec": map[string]any{
			"pin": json.Number("73920184"), "pinFloat": float64(73920184), "pinInt64": int64(73920184), "pinInt": 73920184,
			"replicas": 3, "port": 5432, "other": json.Number("1234567"),
			"env": []any{map[string]any{"name": "PIN", "value": "73920184"}, map[string]any{"name": "PIN_B64", "value": b64("73920184")}},
		}}}
	text := Join("", render(t, NewRenderer(NewMarks(testKey, nil, nil), &s), "root/app", obj))
	for _, leak := range []string{"73920184", "7.3920184e+07", b64("73920184")} {
		if strings.Contains(text, leak) {
			t.Errorf("%q appears in\n%s", leak, text)
		}
	}
	for _, want := range []string{"pin: (sensitive value v1)", "pinFloat: (sensitive value v1)", "pinInt64: (sensitive value v1)",
		"pinInt: (sensitive value v1)", "replicas: 3", "port: 5432", "other: 1234567"} {
		if !strings.Contains(text, want) {
			t.Errorf("no %q in\n%s", want, text)
		}
	}
}

// TestMask_SecretInsideConfig: a deploy item shown by its configuration
// (a kubernetes-manifest item routed to an external deployer) shows the
// Secret manifests inside it as a Secret at the top is shown: data and
// stringData keys with markers, never a value — registered or not.
func TestMask_SecretInsideConfig(t *testing.T) {
	const password, token = "unregistered-password", "unregistered-token"
	config := `{"apiVersion":"manifest.deployer.landscaper.gardener.cloud/v1alpha2","kind":"ProviderConfiguration","manifests":[
		{"policy":"manage","manifest":{"apiVersion":"v1","kind":"Secret","metadata":{"name":"creds","namespace":"apps"},
			"data":{"password":"` + b64(password) + `"},"stringData":{"token":"` + token + `"}}},
		{"policy":"manage","manifest":{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"plain","namespace":"apps"},"data":{"k":"shown"}}}]}`
	obj, err := deployer.ConfigObject("app", "landscaper.gardener.cloud/kubernetes-manifest", json.RawMessage(config))
	if err != nil {
		t.Fatal(err)
	}
	text := Join("", render(t, NewRenderer(NewMarks(testKey, nil, nil), &Sensitive{}), "root/app", obj))
	for _, leak := range []string{password, b64(password), token, b64(token)} {
		if strings.Contains(text, leak) {
			t.Errorf("%q appears in\n%s", leak, text)
		}
	}
	for _, want := range []string{"password: (sensitive value v1)", "token: (sensitive value v1)", "k: shown"} {
		if !strings.Contains(text, want) {
			t.Errorf("no %q in\n%s", want, text)
		}
	}
	if strings.Contains(text, "stringData") {
		t.Errorf("stringData is not folded into data:\n%s", text)
	}
}
