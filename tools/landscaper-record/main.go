// Command landscaper-record records what Landscaper's own controllers
// make of a landscape of this project's, as test data for the migration
// from Landscaper. See README.md for a whole recording session.
//
//	landscaper-record controllers -bin DIR -kubeconfig FILE -dir RUNDIR   run Landscaper's controllers
//	landscaper-record apply       -kubeconfig FILE [-registry HOST]      apply the landscape's inputs
//	landscaper-record wait        -kubeconfig FILE                       wait until every root Installation succeeded
//	landscaper-record reconcile   -kubeconfig FILE                       reconcile every root Installation once more
//	landscaper-record record      -kubeconfig FILE -scenario S           write the recording
package main

import (
	"fmt"
	"os"
)

func main() {
	if len(os.Args) < 2 {
		usage()
	}
	commands := map[string]func([]string) error{
		"controllers": runControllers,
		"apply":       apply,
		"wait":        wait,
		"reconcile":   reconcileRoots,
		"record":      record,
	}
	run, ok := commands[os.Args[1]]
	if !ok {
		usage()
	}
	if err := run(os.Args[2:]); err != nil {
		fmt.Fprintln(os.Stderr, "landscaper-record:", err)
		os.Exit(1)
	}
}

func usage() {
	fmt.Fprintln(os.Stderr, "usage: landscaper-record controllers|apply|wait|reconcile|record [flags] (see tools/landscaper-record/README.md)")
	os.Exit(2)
}
