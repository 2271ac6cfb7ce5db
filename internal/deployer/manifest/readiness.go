package manifest

import (
	"context"
	"fmt"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// ReadinessCheckConfig is Landscaper's readinessChecks block.
type ReadinessCheckConfig struct {
	DisableDefault bool          `json:"disableDefault,omitempty"`
	Custom         []CustomCheck `json:"custom,omitempty"`
}

// Validate checks the block as Landscaper's validation does (and refuses
// what the provider cannot honour).
func (c *ReadinessCheckConfig) Validate() error {
	for i, cc := range c.Custom {
		// What Landscaper's validation requires of a custom check.
		switch {
		case cc.Name == "":
			return fmt.Errorf("readinessChecks.custom[%d]: name is required", i)
		case len(cc.ResourceSelector) == 0 && cc.LabelSelector == nil:
			return fmt.Errorf("readinessChecks.custom[%d] (%s): set resourceSelector or labelSelector", i, cc.Name)
		case cc.LabelSelector != nil && len(cc.LabelSelector.Labels) == 0:
			return fmt.Errorf("readinessChecks.custom[%d] (%s).labelSelector: matchLabels must select on at least one label", i, cc.Name)
		case len(cc.Requirements) == 0:
			return fmt.Errorf("readinessChecks.custom[%d] (%s): requirements must have at least one entry", i, cc.Name)
		}
		if err := validTargetName(fmt.Sprintf("readinessChecks.custom[%d] (%s)", i, cc.Name), cc.TargetName); err != nil {
			return err
		}
		for j, r := range cc.Requirements {
			if err := r.validate(); err != nil {
				return fmt.Errorf("readinessChecks.custom[%d] (%s).requirements[%d]: %w", i, cc.Name, j, err)
			}
		}
	}
	return nil
}

// WaitReady waits until every object exists and passes the default checks
// (unless disabled) and every custom check passes — one that names another
// target (targetName) on that target's cluster — until ctx ends. A
// timeout names the object and the condition that was not met. Objects in
// seen were just read or written by the caller; those of kinds without a
// default check need no further read. The first check reads each object
// once; whatever is not ready then is followed with watches (see await),
// so the wait ends as soon as the rollout does.
func (s *Session) WaitReady(ctx context.Context, objs []*Desired, cfg ReadinessCheckConfig, seen map[*Desired]bool) error {
	if _, err := s.resolve(objs); err != nil {
		return err
	}
	var custom, elsewhere []CustomCheck
	for _, cc := range cfg.Custom {
		switch {
		case cc.Disabled:
		case cc.TargetName != nil:
			elsewhere = append(elsewhere, cc)
		default:
			custom = append(custom, cc)
		}
	}
	if err := s.waitHere(ctx, objs, cfg, seen, custom); err != nil {
		return err
	}
	// Checks on other targets wait there, each in a session of its own.
	for _, cc := range elsewhere {
		other, err := s.on(cc.TargetName)
		if err != nil {
			return fmt.Errorf("readiness check %q: %w", cc.Name, err)
		}
		cc.TargetName = nil
		if err := other.waitHere(ctx, nil, ReadinessCheckConfig{DisableDefault: true}, nil, []CustomCheck{cc}); err != nil {
			return err
		}
	}
	return nil
}

// waitHere is WaitReady on the session's own cluster, with the custom
// checks given.
func (s *Session) waitHere(ctx context.Context, objs []*Desired, cfg ReadinessCheckConfig, seen map[*Desired]bool, custom []CustomCheck) error {
	var pending []ObjectRef
	for _, d := range objs {
		if !seen[d] || (!cfg.DisableDefault && hasDefaultCheck(d.Object.GetKind())) {
			pending = append(pending, d.Ref())
		}
	}
	ready := func(ctx context.Context, r reader) (string, error) {
		for len(pending) > 0 {
			ref := pending[0]
			live, err := r.get(ctx, ref)
			if err != nil {
				return "", err
			}
			if live == nil {
				return ref.String() + " does not exist", nil
			}
			if !cfg.DisableDefault {
				if why := defaultNotReady(live); why != "" {
					return ref.String() + " is not ready: " + why, nil
				}
			}
			pending = pending[1:] // ready once is ready: never read again
		}
		for len(custom) > 0 {
			why, err := customNotReady(ctx, r, custom[0])
			if err != nil || why != "" {
				return why, err
			}
			custom = custom[1:]
		}
		return "", nil
	}
	why, err := ready(ctx, liveReader{s})
	if err != nil || why == "" {
		return err
	}
	sel := selection{refs: pending}
	for _, cc := range custom {
		sel.refs = append(sel.refs, cc.ResourceSelector...)
		if cc.LabelSelector != nil {
			sel.labels = append(sel.labels, cc.LabelSelector)
		}
	}
	return s.await(ctx, "waiting for readiness", sel, ready)
}

func hasDefaultCheck(kind string) bool {
	switch kind {
	case "Pod", "Deployment", "ReplicaSet", "ReplicationController", "StatefulSet", "DaemonSet":
		return true
	}
	return false
}

// defaultNotReady is Landscaper's default readiness check for workloads:
// the controller has seen the latest generation and enough replicas are
// ready. Other kinds are ready once they exist.
func defaultNotReady(u *unstructured.Unstructured) string {
	obj := u.Object
	observed, _, _ := unstructured.NestedInt64(obj, "status", "observedGeneration")
	generationSeen := func() string {
		if u.GetKind() != "Pod" && observed < u.GetGeneration() {
			return fmt.Sprintf("status.observedGeneration %d < metadata.generation %d", observed, u.GetGeneration())
		}
		return ""
	}
	replicas := func() int64 {
		if r, found, _ := unstructured.NestedInt64(obj, "spec", "replicas"); found {
			return r
		}
		return 1
	}
	status := func(f string) int64 { v, _, _ := unstructured.NestedInt64(obj, "status", f); return v }
	switch u.GetKind() {
	case "Pod":
		phase, _, _ := unstructured.NestedString(obj, "status", "phase")
		if phase == "Succeeded" || (phase == "Running" && conditionTrue(u, "Ready")) {
			return ""
		}
		return fmt.Sprintf("phase %q, condition Ready is not True", phase)
	case "Deployment":
		if why := generationSeen(); why != "" {
			return why
		}
		want := replicas()
		switch {
		case status("updatedReplicas") < want:
			return fmt.Sprintf("%d/%d replicas updated", status("updatedReplicas"), want)
		case status("availableReplicas") < want:
			return fmt.Sprintf("%d/%d replicas available", status("availableReplicas"), want)
		case status("replicas") > status("updatedReplicas"):
			return fmt.Sprintf("%d old replicas still running", status("replicas")-status("updatedReplicas"))
		}
	case "ReplicaSet", "ReplicationController":
		if why := generationSeen(); why != "" {
			return why
		}
		if want := replicas(); status("readyReplicas") < want {
			return fmt.Sprintf("%d/%d replicas ready", status("readyReplicas"), want)
		}
	case "StatefulSet":
		if why := generationSeen(); why != "" {
			return why
		}
		want := replicas()
		if status("readyReplicas") < want {
			return fmt.Sprintf("%d/%d replicas ready", status("readyReplicas"), want)
		}
		if status("updatedReplicas") < want {
			return fmt.Sprintf("%d/%d replicas updated", status("updatedReplicas"), want)
		}
	case "DaemonSet":
		if why := generationSeen(); why != "" {
			return why
		}
		want := status("desiredNumberScheduled")
		if status("numberReady") < want {
			return fmt.Sprintf("%d/%d pods ready", status("numberReady"), want)
		}
		if status("updatedNumberScheduled") < want {
			return fmt.Sprintf("%d/%d pods updated", status("updatedNumberScheduled"), want)
		}
	}
	return ""
}
