package blueprint

import (
	"context"
	"fmt"
	"reflect"
	"strings"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint/template"
)

// PlannedExports are an installation's data exports as far as a plan
// knows them: Known the values its apply will export, Unknown the names
// it will export whose values only the apply knows. Together they are
// exactly the names the apply exports.
type PlannedExports struct {
	Known   map[string]any
	Unknown []string
	// NoTargets says the blueprint declares no target export, so the
	// apply exports no target.
	NoTargets bool
}

// standIn is what an unknown input holds while the export executions run
// at plan; two of them show which outputs an unknown input reaches. They
// are plain words, so YAML reads them as strings wherever they land.
const standIn = "lsplanunknown4f1c9e0b"

// PredictExports runs the export executions at plan. in holds what the
// apply will hand them, except the values at unknown (paths below the
// executions' `values`: ["deployitems", item, key], ["deployitems", item],
// ["dataobjects", name], ["targets", name]), which only the apply knows.
// An export is known when no execution that can produce it depends on an
// unknown value or varies between runs (template.Analyze); the outputs an
// unknown value reaches are found by running the executions with two
// different stand-ins. It returns false when the plan cannot say which
// exports the apply produces at all: an execution is Opaque to an unknown
// value, fails, or the stand-ins change which exports there are.
func (b *Blueprint) PredictExports(ctx context.Context, in ExportInput, unknown [][]string) (PlannedExports, bool) {
	var paths [][]string
	for _, u := range unknown {
		paths = append(paths, u, append([]string{"values"}, u...))
	}
	dep := template.Independent
	for _, ex := range b.ExportExecutions {
		d := template.Analyze(template.Request{Kind: "export execution", Execution: ex, Files: b.Files, Limits: b.limits}, paths)
		if d == template.Opaque {
			return PlannedExports{}, false
		}
		dep = max(dep, d)
	}
	first, err := b.runStoodIn(ctx, in, unknown, standIn+"a")
	if err != nil {
		return PlannedExports{}, false
	}
	second := first
	if dep == template.Printed {
		if second, err = b.runStoodIn(ctx, in, unknown, standIn+"b"); err != nil {
			return PlannedExports{}, false
		}
	}
	out := PlannedExports{Known: map[string]any{}, NoTargets: true}
	for _, def := range b.Exports {
		if def.Type != ImportTypeData {
			out.NoTargets = false
			continue
		}
		v1, ok1 := first[def.Name]
		v2, ok2 := second[def.Name]
		if ok1 != ok2 {
			return PlannedExports{}, false
		}
		if !ok1 {
			continue
		}
		var warnings []string
		if reflect.DeepEqual(v1, v2) && !holdsStandIn(v1) &&
			b.validateValue(fmt.Sprintf("export %q", def.Name), def.Name, def.Schema, v1, in.Component, &warnings) == nil {
			out.Known[def.Name] = v1
		} else {
			out.Unknown = append(out.Unknown, def.Name)
		}
	}
	return out, true
}

// runStoodIn runs the export executions with word at every unknown path.
func (b *Blueprint) runStoodIn(ctx context.Context, in ExportInput, unknown [][]string, word string) (map[string]any, error) {
	values, err := b.exportValues(in)
	if err != nil {
		return nil, err
	}
	internal, _ := values["values"].(map[string]any)
	for _, u := range unknown {
		if len(u) < 2 {
			return nil, fmt.Errorf("unknown input %v: too short", u)
		}
		group, _ := internal[u[0]].(map[string]any) // fresh maps of exportValues
		if group == nil {
			return nil, fmt.Errorf("unknown input %v: no such group", u)
		}
		if len(u) == 2 {
			group[u[1]] = word
			continue
		}
		item := map[string]any{}
		if m, ok := group[u[1]].(map[string]any); ok {
			for k, v := range m {
				item[k] = v
			}
		}
		item[u[2]] = word
		group[u[1]] = item
	}
	return b.runExportExecutions(ctx, in, values, nil)
}

// holdsStandIn reports whether v holds a stand-in anywhere.
func holdsStandIn(v any) bool {
	switch x := v.(type) {
	case string:
		return strings.Contains(x, standIn)
	case map[string]any:
		for k, e := range x {
			if strings.Contains(k, standIn) || holdsStandIn(e) {
				return true
			}
		}
	case []any:
		for _, e := range x {
			if holdsStandIn(e) {
				return true
			}
		}
	}
	return false
}
