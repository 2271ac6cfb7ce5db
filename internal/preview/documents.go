package preview

import (
	"strings"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
)

// Document is one object of an item's text (Join): its ref, read back
// from its header, and its note.
type Document struct {
	Ref  deployer.ObjectRef
	Note string
}

// Documents reads the objects of an item's text back: what a refresh asks
// a cluster for (the provider's plan_diff = "server"). Headers that name
// no object are left out.
func Documents(text string) []Document {
	var out []Document
	lines := strings.Split(text, "\n")
	for i := 0; i < len(lines); i++ {
		header, ok := strings.CutPrefix(lines[i], "# ")
		if !ok || (i > 0 && lines[i-1] != "---") {
			continue
		}
		f := strings.Fields(header)
		if len(f) < 3 {
			continue
		}
		r := deployer.ObjectRef{APIVersion: f[0], Kind: f[1], Name: f[2]}
		if ns, name, found := strings.Cut(f[2], "/"); found {
			r.Namespace, r.Name = ns, name
		}
		var notes []string
		for i+1 < len(lines) && strings.HasPrefix(lines[i+1], "# ") {
			i++
			notes = append(notes, strings.TrimPrefix(lines[i], "# "))
		}
		out = append(out, Document{Ref: r, Note: strings.Join(notes, "\n")})
	}
	return out
}
