package template

import (
	"fmt"
	"reflect"
	"regexp"
	"strings"
	gotmpl "text/template"
)

// amplifiers are the functions whose result may be far larger than their
// arguments; each charges the size of its result before building it.
func (b *budget) amplifiers() gotmpl.FuncMap {
	seq := func(start, stop, step int) ([]int, error) {
		if err := b.charge(8 * sequenceLength(start, stop, step)); err != nil {
			return nil, err
		}
		return boundedSequence(start, stop, step)
	}
	random := func(name string) func(int) (string, error) {
		fn, _ := landscaperSprig()[name].(func(int) string)
		return func(n int) (string, error) {
			if err := b.charge(int64(n)); err != nil {
				return "", err
			}
			return fn(n), nil
		}
	}
	indent := func(newline bool) func(int, string) (string, error) {
		return func(spaces int, s string) (string, error) {
			if spaces < 0 {
				spaces = 0
			}
			if err := b.charge(int64(spaces)*int64(strings.Count(s, "\n")+1) + int64(len(s)) + 1); err != nil {
				return "", err
			}
			pad := strings.Repeat(" ", spaces)
			r := pad + strings.ReplaceAll(s, "\n", "\n"+pad)
			if newline {
				r = "\n" + r
			}
			return r, nil
		}
	}
	regexReplace := func(literal bool) func(string, string, string) (string, error) {
		return func(expr, s, repl string) (string, error) {
			re, err := regexp.Compile(expr)
			if err != nil {
				return "", err
			}
			per := int64(len(repl))
			if !literal {
				per += int64(strings.Count(repl, "$")) * int64(len(s))
			}
			matches := int64(len(re.FindAllStringIndex(s, -1)))
			if err := b.charge(int64(len(s)) + matches*per); err != nil {
				return "", err
			}
			if literal {
				return re.ReplaceAllLiteralString(s, repl), nil
			}
			return re.ReplaceAllString(s, repl), nil
		}
	}
	fm := gotmpl.FuncMap{
		"until": func(count int) ([]int, error) {
			step := 1
			if count < 0 {
				step = -1
			}
			return seq(0, count, step)
		},
		"untilStep": seq,
		"seq": func(params ...int) (string, error) {
			// An upper bound of Sprig's count, whatever the argument form.
			lo, hi, step := 0, 0, 1
			for _, p := range params {
				lo, hi = min(lo, p), max(hi, p)
			}
			if len(params) == 3 && params[1] != 0 {
				step = abs(params[1])
			}
			if err := b.charge(21 * (sequenceLength(lo, hi+1, step) + 1)); err != nil {
				return "", err
			}
			seqFn, _ := landscaperSprig()["seq"].(func(...int) string)
			return seqFn(params...), nil
		},
		"repeat": func(count int, s string) (string, error) {
			if count < 0 {
				count = 0
			}
			if err := b.charge(int64(count) * int64(len(s))); err != nil {
				return "", err
			}
			return strings.Repeat(s, count), nil
		},
		"randAlpha":    random("randAlpha"),
		"randAlphaNum": random("randAlphaNum"),
		"randAscii":    random("randAscii"),
		"randNumeric":  random("randNumeric"),
		"randBytes": func(n int) (string, error) {
			if err := b.charge(2 * int64(n)); err != nil {
				return "", err
			}
			fn, _ := landscaperSprig()["randBytes"].(func(int) (string, error))
			return fn(n)
		},
		"indent":  indent(false),
		"nindent": indent(true),
		"replace": func(old, replacement, s string) (string, error) {
			n := int64(len(s)) + 1
			if old != "" {
				n = int64(strings.Count(s, old))
			}
			if err := b.charge(int64(len(s)) + n*int64(len(replacement))); err != nil {
				return "", err
			}
			return strings.ReplaceAll(s, old, replacement), nil
		},
		"regexReplaceAll":            regexReplace(false),
		"mustRegexReplaceAll":        regexReplace(false),
		"regexReplaceAllLiteral":     regexReplace(true),
		"mustRegexReplaceAllLiteral": regexReplace(true),
		"printf": func(format string, args ...any) (string, error) {
			if err := checkWidths(format, args); err != nil {
				return "", err
			}
			if err := b.chargeArgs(append([]any{format}, args...)); err != nil {
				return "", err
			}
			return fmt.Sprintf(format, args...), nil
		},
		"concat": func(lists ...any) ([]any, error) {
			n := int64(0)
			for _, l := range lists {
				if v := reflect.ValueOf(l); v.Kind() == reflect.Slice || v.Kind() == reflect.Array {
					n += int64(v.Len())
				}
			}
			if err := b.charge(16 * n); err != nil {
				return nil, err
			}
			fn, _ := landscaperSprig()["concat"].(func(...any) any)
			res, _ := fn(lists...).([]any)
			return res, nil
		},
	}
	return fm
}

// sequenceLength is the number of elements untilStep(start, stop, step) has.
func sequenceLength(start, stop, step int) int64 {
	if step == 0 || (step > 0 && start >= stop) || (step < 0 && start <= stop) {
		return 0
	}
	return int64(abs(stop-start)/abs(step)) + 1
}

// maxWidth bounds printf widths and precisions: "%999999999d" would build
// a gigabyte in one call.
const maxWidth = 1 << 16

// checkWidths refuses widths and precisions above maxWidth, written in a
// verb of the format or passed as `*` arguments.
func checkWidths(format string, args []any) error {
	tooWide := fmt.Errorf("printf: width or precision above %d", maxWidth)
	star := false
	for i := 0; i < len(format); i++ {
		if format[i] != '%' {
			continue
		}
		num := 0
		for i++; i < len(format); i++ {
			c := format[i]
			switch {
			case c >= '0' && c <= '9':
				if num = num*10 + int(c-'0'); num > maxWidth {
					return tooWide
				}
				continue
			case c == '*':
				star = true
				continue
			case strings.IndexByte("+-# .[]", c) >= 0:
				num = 0
				continue
			}
			break
		}
	}
	if star {
		for _, a := range args {
			if n, ok := a.(int); ok && (n > maxWidth || n < -maxWidth) {
				return tooWide
			}
		}
	}
	return nil
}
