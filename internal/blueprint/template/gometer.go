package template

import (
	"fmt"
	"reflect"
	gotmpl "text/template"
	"text/template/parse"
)

// Names of the functions meterTree injects into every parsed template.
const (
	stepFunc = "__landscaperStep"
	outFunc  = "__landscaperOut"
)

// meterTree injects a step into every range body and every template
// definition (so loops and template recursion are counted even when they
// call no function), and a size check before every value an action
// prints (so printing a list that shares one large string many times
// cannot build a huge buffer in fmt). The template library offers no
// hook for either; the injected nodes print nothing and leave the output
// unchanged.
func meterTree(tmpl *gotmpl.Template, funcs gotmpl.FuncMap) error {
	helper, err := gotmpl.New("limit").Funcs(funcs).Parse("{{" + stepFunc + "}}{{.|" + outFunc + "}}")
	if err != nil {
		return err
	}
	nodes := helper.Root.Nodes
	step, _ := nodes[0].(*parse.ActionNode)
	out, _ := nodes[1].(*parse.ActionNode)
	if step == nil || out == nil || len(out.Pipe.Cmds) != 2 {
		return fmt.Errorf("limit: unexpected parse tree")
	}
	m := meter{step: step, out: out.Pipe.Cmds[1]}
	for _, t := range tmpl.Templates() {
		if t.Tree == nil || t.Root == nil {
			continue
		}
		m.list(t.Root)
		t.Root.Nodes = append([]parse.Node{m.step}, t.Root.Nodes...)
	}
	return nil
}

type meter struct {
	step *parse.ActionNode
	out  *parse.CommandNode
}

func (m meter) list(l *parse.ListNode) {
	if l == nil {
		return
	}
	for _, n := range l.Nodes {
		m.node(n)
	}
}

func (m meter) node(n parse.Node) {
	switch x := n.(type) {
	case *parse.ActionNode:
		if len(x.Pipe.Decl) == 0 && !x.Pipe.IsAssign {
			x.Pipe.Cmds = append(x.Pipe.Cmds, m.out)
		}
	case *parse.IfNode:
		m.list(x.List)
		m.list(x.ElseList)
	case *parse.WithNode:
		m.list(x.List)
		m.list(x.ElseList)
	case *parse.RangeNode:
		m.list(x.List)
		m.list(x.ElseList)
		if x.List != nil {
			x.List.Nodes = append([]parse.Node{m.step}, x.List.Nodes...)
		}
	}
}

// limitFuncs are the functions meterTree's nodes call.
func (b *budget) limitFuncs(output func() int) gotmpl.FuncMap {
	return gotmpl.FuncMap{
		stepFunc: func() (string, error) { return "", b.step() },
		outFunc: func(v any) (any, error) {
			left := b.limits.MaxBytes - int64(output())
			if deepSize(v, left) > left {
				return nil, limitError(fmt.Sprintf("the rendered output exceeds %d bytes", b.limits.MaxBytes), "max_bytes")
			}
			return v, nil
		},
	}
}

// deepSize estimates the bytes v takes when printed or serialized,
// counting shared values as often as they are reachable. It stops as soon
// as the estimate exceeds limit, so a list that shares itself 2^40 times
// costs no more than limit to measure.
func deepSize(v any, limit int64) int64 {
	var total int64
	var walk func(v reflect.Value)
	walk = func(v reflect.Value) {
		if total > limit {
			return
		}
		switch v.Kind() {
		case reflect.Invalid:
			total += 5
		case reflect.String:
			total += int64(v.Len()) + 2
		case reflect.Interface, reflect.Pointer:
			if v.IsNil() {
				total += 5
				return
			}
			walk(v.Elem())
		case reflect.Slice, reflect.Array:
			if v.Kind() == reflect.Slice && v.Type().Elem().Kind() == reflect.Uint8 {
				total += int64(v.Len()) * 4
				return
			}
			total += 2
			for i := 0; i < v.Len() && total <= limit; i++ {
				total++
				walk(v.Index(i))
			}
		case reflect.Map:
			total += 2
			it := v.MapRange()
			for it.Next() && total <= limit {
				total += 2
				walk(it.Key())
				walk(it.Value())
			}
		case reflect.Struct:
			total += 2
			for i := 0; i < v.NumField() && total <= limit; i++ {
				total += int64(len(v.Type().Field(i).Name)) + 2
				if v.Type().Field(i).IsExported() {
					walk(v.Field(i))
				}
			}
		default:
			total += 24
		}
	}
	walk(reflect.ValueOf(v))
	return total
}

// argsSize is deepSize over several arguments.
func argsSize(args []any, limit int64) int64 {
	var total int64
	for _, a := range args {
		total += deepSize(a, limit-total) + 1
		if total > limit {
			break
		}
	}
	return total
}

// serializers turn any value into a string (or deep-copy it): their cost
// is the printed size of their arguments, which may be far larger than
// the memory those arguments hold.
var serializers = map[string]bool{
	"print": true, "println": true, "cat": true, "join": true, "toString": true, "toStrings": true,
	"toJson": true, "mustToJson": true, "toPrettyJson": true, "mustToPrettyJson": true,
	"toRawJson": true, "mustToRawJson": true, "toYaml": true, "quote": true, "squote": true,
	"html": true, "js": true, "urlquery": true, "deepCopy": true, "mustDeepCopy": true,
	"merge": true, "mustMerge": true, "mergeOverwrite": true, "mustMergeOverwrite": true,
	"sortAlpha": true, "fail": true,
}

// builtinPrinters are text/template built-ins that format their arguments;
// overriding them in the function map makes them metered too.
var builtinPrinters = map[string]any{
	"print":    fmt.Sprint,
	"println":  fmt.Sprintln,
	"html":     gotmpl.HTMLEscaper,
	"js":       gotmpl.JSEscaper,
	"urlquery": gotmpl.URLQueryEscaper,
}

// metered returns fm with every function that builds strings or lists
// charged to b: serializers by the printed size of their arguments before
// they run, amplifiers (repeat, indent, replace, …) by the size of their
// result before they build it, and every other string result by its
// length after.
func (b *budget) metered(fm gotmpl.FuncMap) gotmpl.FuncMap {
	out := make(gotmpl.FuncMap, len(fm)+len(builtinPrinters)+8)
	for name, fn := range builtinPrinters {
		out[name] = b.wrap(fn, b.chargeArgs, nil)
	}
	for name, fn := range fm {
		switch {
		case serializers[name]:
			out[name] = b.wrap(fn, b.chargeArgs, nil)
		case returnsString(fn):
			out[name] = b.wrap(fn, nil, b.chargeResult)
		default:
			out[name] = fn
		}
	}
	for name, fn := range b.amplifiers() {
		out[name] = fn
	}
	return out
}

func (b *budget) chargeArgs(args []any) error {
	left := b.limits.MaxBytes - b.bytes.Load()
	return b.charge(argsSize(args, left))
}

func (b *budget) chargeResult(v any) error {
	switch x := v.(type) {
	case string:
		return b.charge(int64(len(x)))
	case []byte:
		return b.charge(int64(len(x)))
	}
	return nil
}

var errorType = reflect.TypeFor[error]()

func returnsString(fn any) bool {
	t := reflect.TypeOf(fn)
	if t == nil || t.Kind() != reflect.Func || t.NumOut() == 0 {
		return false
	}
	k := t.Out(0)
	return k.Kind() == reflect.String || (k.Kind() == reflect.Slice && k.Elem().Kind() == reflect.Uint8)
}

// wrap calls pre with the arguments before fn and post with its result
// after; either may stop the call with an error. Common signatures get a
// plain closure, the rest a reflect.MakeFunc wrapper.
func (b *budget) wrap(fn any, pre func([]any) error, post func(any) error) any {
	switch f := fn.(type) {
	case func(string) string:
		return func(s string) (string, error) {
			if pre != nil {
				if err := pre([]any{s}); err != nil {
					return "", err
				}
			}
			r := f(s)
			if post != nil {
				return r, post(r)
			}
			return r, nil
		}
	case func(...any) string:
		return func(args ...any) (string, error) {
			if pre != nil {
				if err := pre(args); err != nil {
					return "", err
				}
			}
			r := f(args...)
			if post != nil {
				return r, post(r)
			}
			return r, nil
		}
	}
	v := reflect.ValueOf(fn)
	t := v.Type()
	if t.Kind() != reflect.Func || t.NumOut() == 0 || t.NumOut() > 2 || (t.NumOut() == 2 && t.Out(1) != errorType) {
		return fn
	}
	ins := make([]reflect.Type, t.NumIn())
	for i := range ins {
		ins[i] = t.In(i)
	}
	nt := reflect.FuncOf(ins, []reflect.Type{t.Out(0), errorType}, t.IsVariadic())
	fail := func(err error) []reflect.Value {
		return []reflect.Value{reflect.Zero(t.Out(0)), reflect.ValueOf(&err).Elem()}
	}
	return reflect.MakeFunc(nt, func(args []reflect.Value) []reflect.Value {
		if pre != nil {
			plain := make([]any, 0, len(args))
			for i, a := range args {
				if t.IsVariadic() && i == len(args)-1 {
					for j := 0; j < a.Len(); j++ {
						plain = append(plain, a.Index(j).Interface())
					}
					continue
				}
				plain = append(plain, a.Interface())
			}
			if err := pre(plain); err != nil {
				return fail(err)
			}
		}
		var res []reflect.Value
		if t.IsVariadic() {
			res = v.CallSlice(args)
		} else {
			res = v.Call(args)
		}
		if len(res) == 2 && !res[1].IsNil() {
			return res
		}
		if post != nil {
			if err := post(res[0].Interface()); err != nil {
				return fail(err)
			}
		}
		return []reflect.Value{res[0], reflect.Zero(errorType)}
	}).Interface()
}
