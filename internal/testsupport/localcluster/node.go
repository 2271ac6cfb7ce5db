package localcluster

import (
	"context"
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/kubernetes"
)

// NodeName is the one fake node kwok runs every pod on.
const NodeName = "kwok-node"

// fakeNode is sized for many small test workloads; kwok never runs a
// container, so the numbers only steer the scheduler.
func fakeNode() *corev1.Node {
	capacity := corev1.ResourceList{
		corev1.ResourceCPU:    resource.MustParse("32"),
		corev1.ResourceMemory: resource.MustParse("256Gi"),
		corev1.ResourcePods:   resource.MustParse("500"),
	}
	return &corev1.Node{
		ObjectMeta: metav1.ObjectMeta{
			Name: NodeName,
			// kwok only simulates nodes that carry this annotation.
			Annotations: map[string]string{"kwok.x-k8s.io/node": "fake"},
			Labels: map[string]string{
				"kubernetes.io/hostname": NodeName,
				"kubernetes.io/os":       "linux",
				"kubernetes.io/arch":     "amd64",
				"type":                   "kwok",
			},
		},
		Status: corev1.NodeStatus{Capacity: capacity, Allocatable: capacity},
	}
}

// addFakeNode registers the node and waits until kwok reports it Ready, which
// proves that kwok works against this API server.
func (c *Cluster) addFakeNode(ctx context.Context) error {
	clients, err := kubernetes.NewForConfig(c.config)
	if err != nil {
		return fmt.Errorf("client for the fake node: %w", err)
	}
	_, err = clients.CoreV1().Nodes().Create(ctx, fakeNode(), metav1.CreateOptions{})
	if err != nil && !apierrors.IsAlreadyExists(err) {
		return fmt.Errorf("creating node %s: %w", NodeName, err)
	}
	err = wait.PollUntilContextCancel(ctx, 200*time.Millisecond, true, func(ctx context.Context) (bool, error) {
		node, err := clients.CoreV1().Nodes().Get(ctx, NodeName, metav1.GetOptions{})
		if err != nil {
			return false, nil //nolint:nilerr // the API server may still be settling; the deadline ends the wait
		}
		return nodeReady(node), nil
	})
	if err != nil {
		return fmt.Errorf("node %s did not become Ready (is kwok running?): %w", NodeName, err)
	}
	return nil
}

func nodeReady(node *corev1.Node) bool {
	for _, cond := range node.Status.Conditions {
		if cond.Type == corev1.NodeReady {
			return cond.Status == corev1.ConditionTrue
		}
	}
	return false
}
