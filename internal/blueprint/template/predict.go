package template

import (
	"text/template/parse"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/lazyregexp"
)

// Export executions at plan (the provider's exports known at plan): an
// execution whose inputs are known is run at plan, and its output is what
// the apply's run will produce only when nothing in it can come out
// differently. Dependence says how far that holds for one execution,
// given the input paths (keys from the top of Request.Values, e.g.
// ["deployitems", "echo", "ip"]) whose values only the apply knows.
type Dependence int

const (
	// Independent: the execution reads none of the unknown paths and
	// calls nothing whose result differs between runs.
	Independent Dependence = iota
	// Printed: it reads unknown paths only by printing them unchanged
	// (`{{ .values.deployitems.echo.ip }}`): no branch, loop, variable or
	// function sees them, so running it with stand-in values shows which
	// parts of its output they reach.
	Printed
	// Opaque: anything else — a branch or function on an unknown path,
	// the whole input handed on (`toYaml .`, `include`), a function whose
	// result differs between runs (randAlphaNum, uuidv4, now, genCA …, a
	// cluster lookup), or a template that cannot be analysed (Spiff with
	// unknown inputs). Its output is known only after apply.
	Opaque
)

// varying are the GoTemplate functions whose result differs between two
// runs with the same inputs, or that read beyond the inputs (include
// reads another file, analysed nowhere; cluster functions).
var varying = map[string]bool{
	"randAlpha": true, "randAlphaNum": true, "randAscii": true, "randNumeric": true, "randBytes": true, "randInt": true,
	"uuidv4": true, "now": true, "ago": true, "htpasswd": true, "bcrypt": true, "encryptAES": true, "shuffle": true,
	"genPrivateKey": true, "genCA": true, "genCAWithKey": true, "genSelfSignedCert": true, "genSelfSignedCertWithKey": true,
	"genSignedCert": true, "genSignedCertWithKey": true, "getHostByName": true, "include": true,
	"getServiceAccountKubeconfig": true, "getServiceAccountKubeconfigWithExpirationTimestamp": true,
	"getShootAdminKubeconfig": true, "getShootAdminKubeconfigWithExpirationTimestamp": true,
}

// spiffVarying finds the Spiff functions of that kind (random values,
// UUIDs, keys and certificates, commands, files written, cluster lookups)
// anywhere in a template's text; a name that merely looks alike makes the
// execution Opaque, which is only ever too careful.
var spiffVarying = lazyregexp.New(`\b(rand|uuid|x509\w*|genkey|exec\w*|pipe\w*|tempfile|write|getServiceAccountKubeconfig\w*|getShootAdminKubeconfig\w*)\b`)

// Analyze says how req's execution depends on the unknown paths. It
// reads the template (files through req.Files) but runs nothing; an
// execution it cannot read is Opaque.
func Analyze(req Request, unknown [][]string) Dependence {
	switch req.Execution.Type {
	case TypeGoTemplate:
		text, name, err := goTemplateText(req)
		if err != nil {
			return Opaque
		}
		return analyzeGoTemplate(name, text, unknown)
	case TypeSpiff:
		text, _, err := spiffTemplateText(req)
		if err != nil || len(unknown) > 0 || spiffVarying().Match(text) {
			return Opaque
		}
		return Independent
	}
	return Opaque
}

func analyzeGoTemplate(name, text string, unknown [][]string) Dependence {
	t := parse.New(name)
	t.Mode = parse.SkipFuncCheck
	trees := map[string]*parse.Tree{}
	if _, err := t.Parse(text, "", "", trees); err != nil {
		return Opaque
	}
	a := analysis{unknown: unknown}
	for _, tree := range trees {
		if tree.Root != nil {
			a.list(tree.Root)
		}
	}
	return a.dep
}

type analysis struct {
	unknown [][]string
	dep     Dependence
}

func (a *analysis) raise(d Dependence) {
	if d > a.dep {
		a.dep = d
	}
}

func (a *analysis) list(l *parse.ListNode) {
	if l == nil {
		return
	}
	for _, n := range l.Nodes {
		a.node(n)
	}
}

func (a *analysis) node(n parse.Node) {
	switch x := n.(type) {
	case *parse.ActionNode:
		if ref, ok := barePrint(x.Pipe); ok && a.reaches(ref) {
			a.raise(Printed)
			return
		}
		a.pipe(x.Pipe)
	case *parse.IfNode:
		a.pipe(x.Pipe)
		a.list(x.List)
		a.list(x.ElseList)
	case *parse.RangeNode:
		a.pipe(x.Pipe)
		a.list(x.List)
		a.list(x.ElseList)
	case *parse.WithNode:
		a.pipe(x.Pipe)
		a.list(x.List)
		a.list(x.ElseList)
	case *parse.TemplateNode:
		a.pipe(x.Pipe)
	case *parse.ListNode:
		a.list(x)
	case *parse.TextNode, *parse.CommentNode, *parse.BreakNode, *parse.ContinueNode:
	default:
		a.raise(Opaque) // a node kind of a newer Go: not analysed
	}
}

// barePrint is the reference of an action that only prints one field
// chain of the input.
func barePrint(p *parse.PipeNode) ([]string, bool) {
	if p == nil || len(p.Decl) > 0 || len(p.Cmds) != 1 || len(p.Cmds[0].Args) != 1 {
		return nil, false
	}
	return reference(p.Cmds[0].Args[0])
}

// reference is the input path an argument reads: a field chain from the
// dot or from $. Inside range and with the dot is another value, but the
// pipeline that set it was checked; a path read there is taken as if from
// the top, which can only make an execution look more dependent.
func reference(n parse.Node) ([]string, bool) {
	switch x := n.(type) {
	case *parse.FieldNode:
		return x.Ident, true
	case *parse.DotNode:
		return nil, true
	case *parse.VariableNode:
		if len(x.Ident) > 0 && x.Ident[0] == "$" {
			return x.Ident[1:], true
		}
	}
	return nil, false
}

func (a *analysis) pipe(p *parse.PipeNode) {
	if p == nil {
		return
	}
	for _, c := range p.Cmds {
		for _, arg := range c.Args {
			a.arg(arg)
		}
	}
}

func (a *analysis) arg(n parse.Node) {
	if ref, ok := reference(n); ok {
		if a.reaches(ref) {
			a.raise(Opaque)
		}
		return
	}
	switch x := n.(type) {
	case *parse.IdentifierNode:
		if varying[x.Ident] {
			a.raise(Opaque)
		}
	case *parse.PipeNode:
		a.pipe(x)
	case *parse.ChainNode:
		a.arg(x.Node)
	case *parse.VariableNode, *parse.StringNode, *parse.NumberNode, *parse.BoolNode, *parse.NilNode:
	default:
		a.raise(Opaque)
	}
}

// reaches reports whether reading ref may read an unknown path: one is a
// prefix of the other.
func (a *analysis) reaches(ref []string) bool {
	for _, u := range a.unknown {
		n := min(len(u), len(ref))
		same := true
		for i := 0; i < n; i++ {
			if u[i] != ref[i] {
				same = false
				break
			}
		}
		if same {
			return true
		}
	}
	return false
}
