package main

import (
	"context"
	"flag"
	"fmt"
	"sort"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/dynamic"
)

// operationAnnotation is Landscaper's annotation that starts a new job of
// a root Installation ("reconcile"); Landscaper removes it when it does.
const operationAnnotation = "landscaper.gardener.cloud/operation"

// root is what wait looks at of a root Installation.
type root struct {
	phase, job, finished, lastError string
	operation                       bool
}

func rootOf(u *unstructured.Unstructured) root {
	s := func(f ...string) string {
		v, _, _ := unstructured.NestedString(u.Object, append([]string{"status"}, f...)...)
		return v
	}
	_, op := u.GetAnnotations()[operationAnnotation]
	return root{phase: s("phase"), job: s("jobID"), finished: s("jobIDFinished"), lastError: s("lastError", "message"), operation: op}
}

// done: the root's current job finished (and one after before, if given).
func (r root) done(before string) bool {
	return !r.operation && r.job != "" && r.job == r.finished && r.job != before
}

// waitRoots watches the namespace's root Installations until each has
// finished a job other than before[name]; it fails when one finished in
// another phase than Succeeded.
func waitRoots(ctx context.Context, client dynamic.Interface, ns string, before map[string]string) error {
	res := client.Resource(resources["Installation"]).Namespace(ns)
	list, err := res.List(ctx, metav1.ListOptions{})
	if err != nil {
		return err
	}
	roots := map[string]root{}
	for i := range list.Items {
		if u := &list.Items[i]; u.GetLabels()[labelEncompassedBy] == "" {
			roots[u.GetName()] = rootOf(u)
		}
	}
	if len(roots) == 0 {
		return fmt.Errorf("no root Installation in %s", ns)
	}
	w, err := res.Watch(ctx, metav1.ListOptions{ResourceVersion: list.GetResourceVersion()})
	if err != nil {
		return err
	}
	defer w.Stop()
	for {
		var pending, failed []string
		for name, r := range roots {
			switch {
			case !r.done(before[name]):
				pending = append(pending, name+" ("+r.phase+")")
			case r.phase != "Succeeded":
				failed = append(failed, fmt.Sprintf("%s is %s: %s", name, r.phase, r.lastError))
			}
		}
		sort.Strings(pending)
		if len(failed) > 0 {
			return fmt.Errorf("%s", strings.Join(failed, "; "))
		}
		if len(pending) == 0 {
			fmt.Println("every root Installation succeeded")
			return nil
		}
		fmt.Println("waiting for", strings.Join(pending, ", "))
		select {
		case <-ctx.Done():
			return fmt.Errorf("still waiting for %s: %w", strings.Join(pending, ", "), ctx.Err())
		case ev, ok := <-w.ResultChan():
			if !ok {
				return fmt.Errorf("the watch of Installations ended")
			}
			if u, isObj := ev.Object.(*unstructured.Unstructured); isObj && ev.Type != watch.Error && u.GetLabels()[labelEncompassedBy] == "" {
				if ev.Type == watch.Deleted {
					delete(roots, u.GetName())
				} else {
					roots[u.GetName()] = rootOf(u)
				}
			}
		}
	}
}

const labelEncompassedBy = "landscaper.gardener.cloud/encompassed-by"

func wait(args []string) error {
	var c common
	fs := flag.NewFlagSet("wait", flag.ExitOnError)
	c.flags(fs)
	_ = fs.Parse(args)
	config, _, l, err := c.load()
	if err != nil {
		return err
	}
	client, err := dynamic.NewForConfig(config)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), c.timeout)
	defer cancel()
	return waitRoots(ctx, client, l.HostNamespace, nil)
}

// reconcileRoots annotates every root Installation with Landscaper's
// reconcile operation and waits until each finished the new job.
func reconcileRoots(args []string) error {
	var c common
	fs := flag.NewFlagSet("reconcile", flag.ExitOnError)
	c.flags(fs)
	_ = fs.Parse(args)
	config, _, l, err := c.load()
	if err != nil {
		return err
	}
	client, err := dynamic.NewForConfig(config)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), c.timeout)
	defer cancel()
	res := client.Resource(resources["Installation"]).Namespace(l.HostNamespace)
	before := map[string]string{}
	patch := []byte(`{"metadata":{"annotations":{"` + operationAnnotation + `":"reconcile"}}}`)
	for _, inst := range l.Installations {
		u, err := res.Get(ctx, inst.GetName(), metav1.GetOptions{})
		if err != nil {
			return err
		}
		before[u.GetName()] = rootOf(u).finished
		if _, err := res.Patch(ctx, u.GetName(), types.MergePatchType, patch, metav1.PatchOptions{FieldManager: "landscaper-record"}); err != nil {
			return err
		}
		fmt.Println("reconciling", u.GetName())
	}
	return waitRoots(ctx, client, l.HostNamespace, before)
}
