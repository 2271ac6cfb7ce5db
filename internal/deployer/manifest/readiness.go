package manifest

import (
	"context"
	"fmt"
	"strings"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// ReadinessCheckConfig is Landscaper's readinessChecks block.
type ReadinessCheckConfig struct {
	DisableDefault bool          `json:"disableDefault,omitempty"`
	Custom         []CustomCheck `json:"custom,omitempty"`
}

func (c *ReadinessCheckConfig) validate() error {
	for i, cc := range c.Custom {
		if len(cc.ResourceSelector) == 0 && cc.LabelSelector == nil {
			return fmt.Errorf("readinessChecks.custom[%d] (%s): set resourceSelector or labelSelector", i, cc.Name)
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
// (unless disabled) and every custom check passes, polling with a growing
// interval until ctx ends. A timeout names the object and the condition
// that was not met. Objects in seen were just read or written by the
// caller; those of kinds without a default check need no further read.
func (s *Session) WaitReady(ctx context.Context, objs []*Desired, cfg ReadinessCheckConfig, seen map[*Desired]bool) error {
	if _, err := s.resolve(objs); err != nil {
		return err
	}
	var pending []*Desired
	for _, d := range objs {
		if !seen[d] || (!cfg.DisableDefault && hasDefaultCheck(d.Object.GetKind())) {
			pending = append(pending, d)
		}
	}
	err := poll(ctx, "waiting for readiness", func(ctx context.Context) (string, error) {
		for len(pending) > 0 {
			d := pending[0]
			ref := d.Ref()
			client, _, err := s.resourceFor(ref)
			if err != nil {
				return "", err
			}
			live, err := client.Get(ctx, ref.Name, metav1.GetOptions{})
			if apierrors.IsNotFound(err) {
				return ref.String() + " does not exist", nil
			}
			if err != nil {
				return "", fmt.Errorf("%s: %w", ref, err)
			}
			if !cfg.DisableDefault {
				if why := defaultNotReady(live); why != "" {
					return ref.String() + " is not ready: " + why, nil
				}
			}
			pending = pending[1:]
		}
		for _, cc := range cfg.Custom {
			if cc.Disabled {
				continue
			}
			why, err := s.customNotReady(ctx, cc)
			if err != nil || why != "" {
				return why, err
			}
		}
		return "", nil
	})
	return err
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

// objectsOf lists the objects a custom check selects.
func (s *Session) objectsOf(ctx context.Context, cc CustomCheck) ([]unstructured.Unstructured, error) {
	var out []unstructured.Unstructured
	for _, ref := range cc.ResourceSelector {
		client, _, err := s.resourceFor(ref)
		if err != nil {
			return nil, err
		}
		live, err := client.Get(ctx, ref.Name, metav1.GetOptions{})
		if err != nil {
			return nil, fmt.Errorf("readiness check %q: %s: %w", cc.Name, ref, err)
		}
		out = append(out, *live)
	}
	if ls := cc.LabelSelector; ls != nil {
		ref := ObjectRef{APIVersion: ls.APIVersion, Kind: ls.Kind}
		client, m, err := s.resourceFor(ref)
		if err != nil {
			return nil, err
		}
		if m.Namespaced {
			// all namespaces, as Landscaper does
			client = s.clients.Dynamic.Resource(m.GVR)
		}
		var sel []string
		for k, v := range ls.Labels {
			sel = append(sel, k+"="+v)
		}
		list, err := client.List(ctx, metav1.ListOptions{LabelSelector: strings.Join(sel, ",")})
		if err != nil {
			return nil, fmt.Errorf("readiness check %q: listing %s: %w", cc.Name, ls.Kind, err)
		}
		out = append(out, list.Items...)
	}
	return out, nil
}
