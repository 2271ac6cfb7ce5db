package landscaperstate

import (
	"errors"
	"fmt"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
)

// Settled returns nil when Landscaper finished the landscape
// successfully and left nothing in between: every Installation, Execution
// and DeployItem Succeeded with its last job finished, and no Execution
// has orphaned DeployItems still to delete. Otherwise it lists each
// object that is not, so a migration can refuse to take over a landscape
// Landscaper is still working on (or failed), where what is deployed may
// not match what the objects say.
func (l *Landscape) Settled() error {
	var errs []error
	check := func(ref deployer.ObjectRef, phase, job, finished, lastError string) {
		switch {
		case phase != "Succeeded":
			msg := fmt.Sprintf("%s is in phase %q, not Succeeded", ref, phase)
			if lastError != "" {
				// Not quoted: Landscaper's messages may carry rendered values.
				msg += "; see its status.lastError"
			}
			errs = append(errs, errors.New(msg))
		case job != finished:
			errs = append(errs, fmt.Errorf("%s has not finished its job %s (finished: %q)", ref, job, finished))
		}
	}
	l.Root.Walk(func(inst *Installation) {
		check(inst.ObjectRef, inst.Phase, inst.JobID, inst.JobIDFinished, inst.LastError)
		e := inst.Execution
		if e == nil {
			return
		}
		check(e.ObjectRef, e.Phase, e.JobID, e.JobIDFinished, "")
		if len(e.Orphaned) > 0 {
			errs = append(errs, fmt.Errorf("%s still has orphaned deploy items %v to delete", e.ObjectRef, e.Orphaned))
		}
		for _, di := range e.DeployItems {
			check(di.ObjectRef, di.Phase, di.JobID, di.JobIDFinished, di.LastError)
		}
	})
	return errors.Join(errs...)
}
