package template

import (
	"encoding/json"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/lazyregexp"
)

// A plan may reuse the deploy items an apply rendered, instead of
// rendering again, only when rendering is a function of inputs the plan
// can compare: the installation's configuration, the blueprint's files,
// the component versions' digests and the last job's snapshot. Replayable
// says whether one execution is such a function. It is stricter than
// Analyze's Independent: besides the functions whose result differs
// between runs (varying, spiffVarying), an execution that reads a
// component resource's content (getResourceContent, which may fetch an
// artifact by a tag no digest pins) is not replayable.
func Replayable(req Request) bool {
	if Analyze(req, nil) != Independent {
		return false
	}
	var text []byte
	switch req.Execution.Type {
	case TypeGoTemplate:
		s, _, err := goTemplateText(req)
		if err != nil {
			return false
		}
		text = []byte(s)
	case TypeSpiff:
		b, _, err := spiffTemplateText(req)
		if err != nil {
			return false
		}
		text = b
	}
	return !readsBeyond().Match(text)
}

// readsBeyond finds the functions that read beyond what a plan compares;
// a name that merely looks alike only makes an execution render at every
// plan, which is always right.
var readsBeyond = lazyregexp.New(`\bgetResourceContent\b`)

// MappingsReplayable says whether importDataMappings or
// exportDataMappings (Spiff) evaluate the same from the same values:
// none calls a function of spiffVarying's kind.
func MappingsReplayable(mappings map[string]json.RawMessage) bool {
	for _, raw := range mappings {
		if spiffVarying().Match(raw) || readsBeyond().Match(raw) {
			return false
		}
	}
	return true
}
