package installation

import (
	"errors"
	"fmt"
	"sort"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine/execution"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine/snapshot"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/failure"
)

// child is one subinstallation during its parent's job. result is written
// by its goroutine before done is closed and read only after.
type child struct {
	*subSpec
	prev   *snapshot.Installation
	preds  []*child
	done   chan struct{}
	result *snapshot.Installation
	err    error
}

// objectsCreated passes the job ID to the subinstallations: each starts in
// its own goroutine, and its Init waits for its predecessors. The
// execution, which needs no predecessor, runs in Progressing alongside.
func (r *run) objectsCreated() error {
	base := newScope(r.rendering.imports)
	r.childrenStarted = true
	for _, c := range r.children {
		spec := c.spec(r.spec, c.importsFrom(base))
		go func() {
			defer close(c.done)
			c.result, c.err = Run(r.j, spec, c.prev)
		}()
	}
	return nil
}

// importsFrom returns the Imports function of a subinstallation: wait for
// the predecessors, require that they succeeded, resolve in the scope
// their exports extend.
func (c *child) importsFrom(base *scope) func() (blueprint.Imports, error) {
	return func() (blueprint.Imports, error) {
		published := make([]*snapshot.Installation, 0, len(c.preds))
		templates := map[string]api.SubinstallationTemplate{}
		for _, p := range c.preds {
			<-p.done
			if p.result.Phase != api.InstallationPhaseSucceeded {
				return blueprint.Imports{}, failure.Terminalf("PredecessorFailed",
					"predecessor subinstallation %q did not succeed (phase %s)", p.tmpl.Name, p.result.Phase)
			}
			published = append(published, p.result)
			templates[p.tmpl.Name] = p.tmpl
		}
		return base.with(published, templates).importsFor(c.tmpl.Name, c.tmpl.Imports)
	}
}

// collectChildren waits for the subinstallations started in
// ObjectsCreated and records their results; it returns their errors.
// Later calls return nothing.
func (r *run) collectChildren() []error {
	if !r.childrenStarted || r.childrenCollected {
		return nil
	}
	r.childrenCollected = true
	var errs []error
	results := make(map[string]*snapshot.Installation, len(r.node.Subinstallations)+len(r.children))
	for _, sub := range r.node.Subinstallations {
		results[sub.Name] = sub // orphans whose deletion failed stay
	}
	for _, c := range r.children {
		<-c.done
		results[c.tmpl.Name] = c.result
		if c.err != nil {
			errs = append(errs, c.err)
		}
	}
	r.node.Subinstallations = r.node.Subinstallations[:0]
	for _, sub := range results {
		r.node.Subinstallations = append(r.node.Subinstallations, sub)
	}
	sort.Slice(r.node.Subinstallations, func(i, k int) bool { return r.node.Subinstallations[i].Name < r.node.Subinstallations[k].Name })
	return errs
}

// progressing runs the execution and waits until every subobject finished.
// Its errors are terminal: the subobjects already retried what they could.
func (r *run) progressing() error {
	var errs []error
	if len(r.execSpec.Items) > 0 || r.node.Execution != nil {
		exec, err := execution.Run(r.j, r.execSpec, r.node.Execution)
		if err != nil {
			errs = append(errs, err)
		}
		if len(exec.DeployItems) == 0 && err == nil {
			exec = nil
		}
		r.node.Execution = exec
	}
	errs = append(errs, r.collectChildren()...)
	if len(errs) > 0 {
		return failure.NewTerminal("SubobjectFailed", fmt.Errorf("subobjects failed: %w", errors.Join(errs...)))
	}
	return nil
}
