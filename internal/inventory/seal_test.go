package inventory

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/compress"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
)

// sealCanary is a secret with a quote, a "<" and a line break, so that
// its JSON-escaped form differs from itself.
const sealCanary = "cnry-4f9a\"<x>\nseal"

// canaryForms are the forms of sealCanary a record may hold it in: as
// itself, its base64, and as a JSON string escapes it (json.Marshal, as
// configurations are encoded).
func canaryForms() []string {
	q, _ := json.Marshal(sealCanary)
	return []string{sealCanary, base64.StdEncoding.EncodeToString([]byte(sealCanary)), string(q[1 : len(q)-1]), "cnry-4f9a"}
}

// holdsCanary is the predicate of a job whose registry knows sealCanary.
func holdsCanary(raw json.RawMessage) bool { return bytes.Contains(raw, []byte("cnry-4f9a")) }

// secretItem is a manifest item whose ConfigMap holds the canary and its
// base64, as a blueprint renders a Secret import into it.
func secretItem(t testing.TB, name string) RecordedItem {
	t.Helper()
	config, err := json.Marshal(map[string]any{"manifests": []any{map[string]any{"manifest": map[string]any{
		"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": name},
		"data": map[string]any{"password": sealCanary, "b64": base64.StdEncoding.EncodeToString([]byte(sealCanary))}}}}})
	if err != nil {
		t.Fatal(err)
	}
	return recordItem(deployer.Item{ID: "root/" + name, Name: name, Type: "landscaper.gardener.cloud/kubernetes-manifest", Config: config},
		deployer.Result{ProviderStatus: json.RawMessage(`{"managedResources":[{"resource":{"apiVersion":"v1","kind":"ConfigMap","name":"` + name + `"}}]}`)})
}

// sealingParent is a parent of store opened by a job with key (nil:
// none) that seals what holds reports; verify as the reconcile action.
func sealingParent(t testing.TB, store *secretStore, key []byte, holds func(json.RawMessage) bool, verify, create bool) (*parent, error) {
	t.Helper()
	p := newParentIn(store, "ns", "root", "instance-1")
	p.key, p.verify = key, verify && key != nil
	var err error
	if p.seal, err = newSealing(key, holds); err != nil {
		t.Fatal(err)
	}
	return p, p.open(context.Background(), create)
}

// storedBytes are all data of every Secret of store, as stored (base64
// of gzip) and decoded and uncompressed: every byte a reader of the
// namespace's Secrets gets.
func storedBytes(t *testing.T, store *secretStore) []byte {
	t.Helper()
	var all []byte
	for name, o := range store.objs {
		data, err := json.Marshal(o.Object["data"])
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, data...)
		for _, key := range []string{recordKey, partKey} {
			if _, ok := o.Object["data"].(map[string]any)[key]; !ok {
				continue
			}
			raw, err := compress.Gunzip(secretData(t, store, name, key), maxSplitRecordSize)
			if err != nil {
				t.Fatal(err)
			}
			all = append(all, raw...)
		}
	}
	return all
}

// recordedByID are the items of store's record by ID.
func recordedByID(t *testing.T, store *secretStore) map[string]RecordedItem {
	t.Helper()
	out := map[string]RecordedItem{}
	for _, it := range readBack(t, store).rec.Items {
		out[it.ID] = it
	}
	return out
}

// Issue 32: a configuration that holds a registered secret is recorded
// sealed, in the single-Secret form and split alike: no form of the
// secret is in any byte of the inventory's Secrets; an ordinary item's
// configuration stays readable.
func TestSeal_ConfigHoldingASecretIsNotKeptInClear(t *testing.T) {
	for _, n := range []int{0, 2500} { // ordinary items beside: one Secret, and a split record
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			store := newSecretStore()
			p, err := sealingParent(t, store, testKey(1), holdsCanary, false, true)
			if err != nil {
				t.Fatal(err)
			}
			for i := range n {
				p.put(configMapItem(i, "1"))
			}
			p.put(secretItem(t, "secret"))
			p.put(configMapItem(n, "1"))
			if err := p.close(context.Background()); err != nil {
				t.Fatal(err)
			}
			if got := len(store.objs) > 1; got != (n > 0) {
				t.Fatalf("split = %v with %d items: the test does not see the form it means to", got, n)
			}
			all := storedBytes(t, store)
			for _, f := range canaryForms() {
				if bytes.Contains(all, []byte(f)) {
					t.Errorf("the inventory holds the secret's form %q", f)
				}
			}
			items := recordedByID(t, store)
			if s := items["root/secret"]; s.SealedConfig == nil || s.Config != nil {
				t.Errorf("the secret's item is not sealed: %+v", s)
			}
			want := configMapItem(n, "1").Config
			if got := items[fmt.Sprintf("root/cm-%d", n)]; !bytes.Equal(got.Config, want) || got.SealedConfig != nil {
				t.Errorf("an ordinary item's configuration is not kept readable: %s", got.Config)
			}
		})
	}
}

// A job with the key opens what is sealed (the reconcile action applies
// it), and records it sealed again even when its registry does not know
// the secret (the action knows no Secret import).
func TestSeal_OpensWithTheKeyAndStaysSealed(t *testing.T) {
	store := newSecretStore()
	p, err := sealingParent(t, store, testKey(1), holdsCanary, false, true)
	if err != nil {
		t.Fatal(err)
	}
	item := secretItem(t, "secret")
	p.put(item)
	if err := p.close(context.Background()); err != nil {
		t.Fatal(err)
	}
	action, err := sealingParent(t, store, testKey(1), nil, true, false)
	if err != nil {
		t.Fatalf("the reconcile action refuses its own sealed record: %v", err)
	}
	if len(action.recorded) != 1 || !bytes.Equal(action.recorded[0].Config, item.Config) {
		t.Fatalf("opened = %+v, want the configuration sealed", action.recorded)
	}
	if err := action.open(context.Background(), true); err != nil {
		t.Fatal(err)
	}
	reapplied := item
	reapplied.ProviderStatus = json.RawMessage(`{"managedResources":[]}`)
	action.put(reapplied) // as Replay records it: in clear
	if err := action.close(context.Background()); err != nil {
		t.Fatal(err)
	}
	all := storedBytes(t, store)
	for _, f := range canaryForms() {
		if bytes.Contains(all, []byte(f)) {
			t.Errorf("rewritten by a job that knows no secret, the inventory holds %q", f)
		}
	}
	if got := recordedByID(t, store)["root/secret"]; got.SealedConfig == nil || !bytes.Contains(got.ProviderStatus, []byte(`[]`)) {
		t.Errorf("the item recorded again is not sealed, or not the new record: %+v", got)
	}
}

// An import (no key) and a job of another key see the sealed item
// without a configuration, the ordinary one with it; the reconcile
// action fails before it applies anything.
func TestSeal_WithoutTheKeyNoConfiguration(t *testing.T) {
	store := newSecretStore()
	p, err := sealingParent(t, store, testKey(1), holdsCanary, false, true)
	if err != nil {
		t.Fatal(err)
	}
	p.put(secretItem(t, "secret"))
	p.put(configMapItem(1, "1"))
	if err := p.close(context.Background()); err != nil {
		t.Fatal(err)
	}
	for _, it := range readBack(t, store).rec.Items { // Find and Rebuild, which have no key
		got := rebuiltItem(it, nil, nil)
		if it.ID == "root/secret" && got.Config != nil {
			t.Errorf("an import rebuilt the sealed item with a configuration: %s", got.Config)
		}
		if it.ID == "root/cm-1" && !bytes.Equal(got.Config, configMapItem(1, "1").Config) {
			t.Errorf("an import lost an ordinary item's configuration: %s", got.Config)
		}
	}
	for _, key := range [][]byte{nil, testKey(2)} {
		other, err := sealingParent(t, store, key, holdsCanary, false, false)
		if err != nil {
			t.Fatalf("key %x: a job that renders again refuses the record: %v", key, err)
		}
		for _, it := range other.recorded {
			if it.ID == "root/secret" && it.Config != nil {
				t.Errorf("key %x: the sealed item opened: %s", key, it.Config)
			}
		}
	}
	// The action's key opens the record's signature but not a config
	// sealed for another item: moved within the record, it is refused.
	s, _ := newSealing(testKey(1), nil)
	moved := readBack(t, store).rec.Items
	for i := range moved {
		if moved[i].ID == "root/cm-1" {
			moved[i].SealedConfig = recordedByID(t, store)["root/secret"].SealedConfig
			moved[i].Config = nil
		}
	}
	if _, err := s.openRead(moved, true, "ns", "inv"); !errors.Is(err, ErrSealedElsewhere) || !strings.Contains(err.Error(), "root/cm-1") {
		t.Errorf("a sealed configuration moved to another item: err = %v", err)
	}
}

// Opening refuses, as an error and never a panic, a sealed configuration
// under another key, for another item or type, altered in any byte,
// truncated, or withheld.
func TestSeal_RefusesWrongKeyMovedOrTampered(t *testing.T) {
	s, _ := newSealing(testKey(1), func(json.RawMessage) bool { return true })
	it, err := s.seal(secretItem(t, "secret"))
	if err != nil || it.SealedConfig == nil || it.Config != nil {
		t.Fatalf("seal = %+v, %v", it, err)
	}
	if got, err := s.open(it); err != nil || !bytes.Equal(got, secretItem(t, "secret").Config) {
		t.Fatalf("open = %s, %v", got, err)
	}
	again, _ := s.seal(secretItem(t, "secret"))
	if bytes.Equal(again.SealedConfig, it.SealedConfig) {
		t.Error("two seals of the same configuration are equal: the nonce is not random")
	}
	other, _ := newSealing(testKey(2), nil)
	none, _ := newSealing(nil, nil)
	refused := func(what string, s *sealing, it RecordedItem) {
		t.Helper()
		if got, err := s.open(it); err == nil {
			t.Errorf("%s: opened %s", what, got)
		}
	}
	refused("another key", other, it)
	refused("no key", none, it)
	refused("nil sealing", nil, it)
	moved := it
	moved.ID = "root/other"
	refused("another item", s, moved)
	retyped := it
	retyped.Type = "landscaper.gardener.cloud/helm"
	refused("another type", s, retyped)
	for i := range it.SealedConfig {
		tampered := it
		tampered.SealedConfig = bytes.Clone(it.SealedConfig)
		tampered.SealedConfig[i] ^= 0x80
		refused(fmt.Sprintf("byte %d changed", i), s, tampered)
	}
	for _, n := range []int{0, 1, 11, 12, 27, len(it.SealedConfig) - 1} {
		short := it
		short.SealedConfig = it.SealedConfig[:n]
		refused(fmt.Sprintf("truncated to %d", n), s, short)
	}
	if _, err := s.open(RecordedItem{ID: "root/a", ConfigWithheld: true}); !errors.Is(err, ErrWithheld) {
		t.Errorf("withheld: err = %v", err)
	}
}

// A job without a key cannot seal: it withholds the configuration
// instead of writing it in clear.
func TestSeal_WithoutAKeyWithheld(t *testing.T) {
	store := newSecretStore()
	p, err := sealingParent(t, store, nil, holdsCanary, false, true)
	if err != nil {
		t.Fatal(err)
	}
	p.put(secretItem(t, "secret"))
	if err := p.close(context.Background()); err != nil {
		t.Fatal(err)
	}
	all := storedBytes(t, store)
	for _, f := range canaryForms() {
		if bytes.Contains(all, []byte(f)) {
			t.Errorf("withheld, the inventory holds %q", f)
		}
	}
	if got := recordedByID(t, store)["root/secret"]; !got.ConfigWithheld || got.Config != nil || got.SealedConfig != nil {
		t.Errorf("not withheld: %+v", got)
	}
	s, _ := newSealing(testKey(1), nil)
	if _, err := s.openRead(readBack(t, store).rec.Items, true, "ns", "inv"); !errors.Is(err, ErrWithheld) {
		t.Errorf("the reconcile action applies a withheld configuration: err = %v", err)
	}
}

// A record an earlier provider wrote with the secret in clear is sealed
// by the next write, even of an item the job did not apply again.
func TestSeal_ClearRecordSealedAtTheNextWrite(t *testing.T) {
	store := newSecretStore()
	old, err := sealingParent(t, store, testKey(1), nil, false, true)
	if err != nil {
		t.Fatal(err)
	}
	old.put(secretItem(t, "secret"))
	if err := old.close(context.Background()); err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(storedBytes(t, store), []byte("cnry-4f9a")) {
		t.Fatal("without a predicate the configuration is sealed: the test sees nothing")
	}
	p, err := sealingParent(t, store, testKey(1), holdsCanary, false, true)
	if err != nil {
		t.Fatal(err)
	}
	p.put(configMapItem(1, "1"))
	if err := p.close(context.Background()); err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(storedBytes(t, store), []byte("cnry-4f9a")) {
		t.Error("the next write kept the earlier record's secret in clear")
	}
}

// FuzzSeal_Open: whatever a planted record holds as a sealed
// configuration, opening it returns an error, never a panic, and never
// a configuration that is not JSON.
func FuzzSeal_Open(f *testing.F) {
	s, _ := newSealing(testKey(1), func(json.RawMessage) bool { return true })
	it, _ := s.seal(RecordedItem{ID: "root/a", Name: "a", Type: "t", Config: json.RawMessage(`{"a":1}`)})
	f.Add(it.SealedConfig, "root/a", "t", false)
	f.Add([]byte{}, "root/a", "t", true)
	f.Add([]byte("not sealed at all"), "", "", false)
	f.Fuzz(func(t *testing.T, sealed []byte, id, typ string, withheld bool) {
		got, err := s.open(RecordedItem{ID: id, Type: typ, SealedConfig: sealed, ConfigWithheld: withheld})
		if err == nil && !json.Valid(got) {
			t.Fatalf("opened what is not JSON: %q", got)
		}
		// The decoding of a record that holds it refuses nothing else.
		raw, _ := json.Marshal(RecordedItem{ID: id, Type: typ, SealedConfig: sealed, ConfigWithheld: withheld})
		var back RecordedItem
		if json.Unmarshal(raw, &back) == nil {
			_, _ = s.openRead([]RecordedItem{back}, true, "ns", "inv")
			_, _ = s.openRead([]RecordedItem{back}, false, "ns", "inv")
		}
	})
}

// Every entry a record is written from is made by newEntry, which seals:
// this walks the package and fails on an entry literal elsewhere, and on
// a Record literal that sets Items (a record whose items were not
// entries).
func TestSeal_EveryEntryThroughNewEntry(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range entryBypasses(t, name, src) {
			t.Error(v)
		}
		checked++
	}
	if checked < 15 {
		t.Fatalf("checked only %d files", checked)
	}
}

// The walk finds both kinds of bypass.
func TestSeal_WalkFindsBypasses(t *testing.T) {
	src := `package inventory
func newEntry() { _ = entry{id: "fine"} }
func other() {
	_ = entry{id: "x", raw: b}
	_ = []entry{{id: "y"}}
	_ = Record{Version: 1, Items: items}
	_ = Record{Version: 1}
}
`
	if got := entryBypasses(t, "x.go", []byte(src)); len(got) != 3 {
		t.Fatalf("bypasses = %d, want 3:\n%s", len(got), strings.Join(got, "\n"))
	}
}

func entryBypasses(t *testing.T, name string, src []byte) []string {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, name, src, 0)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, decl := range f.Decls {
		fn, ok := decl.(*ast.FuncDecl)
		if ok && fn.Name.Name == "newEntry" {
			continue
		}
		ast.Inspect(decl, func(n ast.Node) bool {
			lit, ok := n.(*ast.CompositeLit)
			if !ok {
				return true
			}
			switch typeName(lit.Type) {
			case "entry":
				out = append(out, fset.Position(lit.Pos()).String()+": an entry made outside newEntry, unsealed")
			case "[]entry":
				for _, e := range lit.Elts {
					if c, ok := e.(*ast.CompositeLit); ok && c.Type == nil {
						out = append(out, fset.Position(c.Pos()).String()+": an entry made outside newEntry, unsealed")
					}
				}
			case "Record":
				for _, e := range lit.Elts {
					if kv, ok := e.(*ast.KeyValueExpr); ok {
						if k, ok := kv.Key.(*ast.Ident); ok && k.Name == "Items" {
							out = append(out, fset.Position(kv.Pos()).String()+": a Record's items set outside newEntry's entries")
						}
					}
				}
			}
			return true
		})
	}
	return out
}

func typeName(e ast.Expr) string {
	switch x := e.(type) {
	case *ast.Ident:
		return x.Name
	case *ast.ArrayType:
		return "[]" + typeName(x.Elt)
	}
	return ""
}
