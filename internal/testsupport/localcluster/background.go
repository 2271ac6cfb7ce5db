package localcluster

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
)

// The background cluster of `make cluster-up` keeps its state in one ignored
// folder of the checkout, so that every test binary of that checkout finds it.
const (
	stateDirName   = ".cluster"
	kubeconfigName = "kubeconfig"
	pidFileName    = "localcluster.pid"
)

// StateDir is where the background cluster keeps its kubeconfig, pid file and logs.
func StateDir(root string) string { return filepath.Join(root, stateDirName) }

// BackgroundKubeconfigPath is the known path of the background cluster's
// kubeconfig; it exists only while that cluster is up and ready.
func BackgroundKubeconfigPath(root string) string {
	return filepath.Join(StateDir(root), kubeconfigName)
}

// PIDFilePath holds the process id of the background cluster's supervisor.
func PIDFilePath(root string) string { return filepath.Join(StateDir(root), pidFileName) }

// probeTimeout keeps a test binary from waiting long on a cluster that is gone.
const probeTimeout = 5 * time.Second

// Probe reports whether the kubeconfig at path reaches a ready API server
// that runs our fake node, and returns the kubeconfig if so.
func Probe(ctx context.Context, path string) ([]byte, error) {
	kubeconfig, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	config, err := RESTConfigFromKubeconfig(kubeconfig)
	if err != nil {
		return nil, err
	}
	config.Timeout = probeTimeout
	clients, err := kubernetes.NewForConfig(config)
	if err != nil {
		return nil, fmt.Errorf("client for %s: %w", path, err)
	}
	ctx, cancel := context.WithTimeout(ctx, probeTimeout)
	defer cancel()
	if _, err := clients.Discovery().RESTClient().Get().AbsPath("/readyz").DoRaw(ctx); err != nil {
		return nil, fmt.Errorf("API server of %s is not ready: %w", path, err)
	}
	node, err := clients.CoreV1().Nodes().Get(ctx, NodeName, metav1.GetOptions{})
	if err != nil {
		return nil, fmt.Errorf("cluster of %s has no node %s: %w", path, NodeName, err)
	}
	if !nodeReady(node) {
		return nil, fmt.Errorf("node %s of %s is not Ready", NodeName, path)
	}
	return kubeconfig, nil
}
