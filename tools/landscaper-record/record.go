package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"path/filepath"

	"k8s.io/client-go/dynamic"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/testsupport/landscaperrecording"
)

// The Landscaper this tool's setup was made for (README.md).
const (
	landscaperVersion = "v0.98"
	landscaperSource  = "github.com/gardener/landscaper at cb27f6c40 (git describe: apis/v0.98.0-7-gcb27f6c40), built with -mod=vendor"
)

// record waits until every root Installation finished and writes what
// the controllers left into the recording folder.
func record(args []string) error {
	var c common
	fs := flag.NewFlagSet("record", flag.ExitOnError)
	c.flags(fs)
	scenario := fs.String("scenario", "", "what happened to the landscape: installed, reconciled, …")
	description := fs.String("description", "", "the scenario in a sentence")
	out := fs.String("out", "", "the recording's folder (default: testdata/landscaper-"+landscaperVersion+"/<landscape>-<scenario> of landscaperrecording)")
	_ = fs.Parse(args)
	if *scenario == "" {
		return errors.New("-scenario is required")
	}
	config, kubeconfig, l, err := c.load()
	if err != nil {
		return err
	}
	if *out == "" {
		*out = filepath.Join("internal", "testsupport", "landscaperrecording", "testdata", "landscaper-"+landscaperVersion, l.Name+"-"+*scenario)
	}
	ctx, cancel := context.WithTimeout(context.Background(), c.timeout)
	defer cancel()
	client, err := dynamic.NewForConfig(config)
	if err != nil {
		return err
	}
	if err := waitRoots(ctx, client, l.HostNamespace, nil); err != nil {
		return err
	}
	rec, err := landscaperrecording.Record(ctx, config, landscaperrecording.RecordOptions{
		Meta: landscaperrecording.Meta{
			Landscaper: landscaperVersion, Source: landscaperSource,
			Landscape: l.Name, Scenario: *scenario, Description: *description,
			HostNamespace: l.HostNamespace, TargetNamespace: l.TargetNamespace, Registry: c.registry,
			Controllers: controllersMeta(),
		},
		Kubeconfigs: []string{kubeconfig},
	})
	if err != nil {
		return err
	}
	if err := rec.Write(*out); err != nil {
		return err
	}
	fmt.Printf("recorded %d host and %d target objects into %s\n", len(rec.Host), len(rec.Target), *out)
	return nil
}
