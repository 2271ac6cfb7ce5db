// Package preview is the text a plan shows of what deploy items deploy
// (issue 24): each object in a canonical YAML form, with secrets masked,
// so that Terraform's own line diff of a multi-line string shows which
// objects of which items are added, removed or changed, and which fields.
//
// # Where the text goes (the provider's part)
//
// The installation resource gets a computed string attribute holding one
// JSON object, deploy item path → ItemShape(Join(ItemPrefix(path),
// Renderer.Item(...))): the item's objects by header ("apiVersion Kind
// ns/name"), each object's text as a list of its lines (shape.go), so
// that Terraform and OpenTofu, which show a JSON string as
// jsonencode({...}), hide unchanged items, objects and lines and show a
// changed line with one line of context on each side. One string rather
// than a map attribute because the plugin framework's and the CLI's cost
// grows with the number of values (a map of 1,000 texts made a no-op plan
// of 1,000 items cost about a third more CPU; tools/bench/RESULTS.md,
// "Plan diff"). `terraform show -json` carries the same string.
//
// # Where "before" comes from
//
// From the state: the attribute's value is what the plan of the last
// apply showed, and Terraform diffs the new plan against it. No cluster
// and no second rendering is needed. An item whose configuration hash is
// unchanged keeps its text from the state (and Marks.Keep its marks), so
// a no-op plan renders nothing. Only a state that has no text yet (written
// before the attribute existed) is filled by refresh from the snapshot:
// each item's recorded config, rendered as the plan would.
//
// Helm items are rendered locally (deployer.Previewer) with the
// capabilities recorded after the last apply for the item's cluster
// (deployer.CapabilitiesReader, kept in private state by destination), the
// revision after the recorded one, and "lookup" finding nothing; a new
// item without recorded capabilities uses helm.DefaultCapabilities. A
// value the chart draws at random shows as deployer.Generated.
//
// # Always the same bytes
//
// Keys are ordered (apiVersion, kind, metadata first; in metadata name,
// namespace, labels, annotations first; "name" first in list items; the
// rest by name), numbers keep every digit, strings YAML would read as
// another type are quoted, multi-line strings are literal blocks, and
// markers depend only on the recorded marks. The same objects, sensitive
// values and marks always give the same text, so plans do not flap.
//
// # Masking
//
// A core Secret shows its data keys (stringData folded in) and, for each
// value, "(sensitive value vN)". Registered sensitive values (Secret
// imports, sensitive exports, target credentials, Helm values read from
// Secrets; Sensitive) and URL credentials are replaced by such a marker
// wherever they appear: in strings, as their base64 form, and as a whole
// number where a numeric field holds one (a Secret import's number comes
// registered in its decimal forms). N counts the different values a location has had:
// a keyed fingerprint (HMAC under the per-installation key that also keys
// config_hash) of the value is recorded at each apply (Marks.Table, in
// private state) and compared at the next plan. The text thus changes
// exactly when the value changes and holds nothing that depends on the
// value, not even a hash: a plan cannot be used to test guesses of a
// short secret. A version instead of a keyed hash because a create's plan
// has no key yet (it is drawn at the first apply) and must still show its
// objects, while the apply must store exactly the planned text.
//
// # Size
//
// A typical item (Deployment, Service, ConfigMap, Secret) is about 2 KB of
// text; 1,000 such items add about 2 MB to the state (BenchmarkItems_1000).
// An object beyond MaxObjectText shows as its header and a digest.
package preview
