// Package localcluster runs a small but real Kubernetes cluster on loopback
// for tests: envtest's etcd and kube-apiserver, plus kube-controller-manager,
// kube-scheduler and kwok with one fake node, so that Deployments,
// StatefulSets and DaemonSets really become ready. Every binary comes from
// the checkout's .tools/bin folder (`make tools`); nothing is downloaded.
//
// Tests use it through Main (in TestMain) and the accessors in testmain.go;
// `make cluster-up` runs the same cluster in the background (cmd/localcluster).
package localcluster

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	"sigs.k8s.io/controller-runtime/pkg/envtest"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/testsupport/checkout"
)

// Binaries are the tools a cluster needs, as named in .tools/bin.
var Binaries = []string{"etcd", "kube-apiserver", "kube-controller-manager", "kube-scheduler", "kwok"}

// componentsKubeconfig is the file in LogDir through which the components reach the API server.
const componentsKubeconfig = "admin.kubeconfig"

// startTimeout bounds the whole start, including the node becoming Ready.
const startTimeout = 2 * time.Minute

// Options say how to start a cluster.
type Options struct {
	// Root is the checkout whose .tools/bin holds the binaries.
	Root string
	// LogDir receives one <component>.log per process; it must exist.
	LogDir string
	// APIServerPort is the port the API server listens on at 127.0.0.1; 0 picks a free one.
	APIServerPort int
}

// Cluster is a running local cluster. Stop it to end every process it started.
type Cluster struct {
	env        *envtest.Environment
	components []*component
	kubeconfig []byte
	config     *rest.Config
	logDir     string
	logs       []*os.File
}

// Start starts etcd and the API server, then the controllers, the scheduler
// and kwok, registers the fake node and returns once that node is Ready.
// On error everything already started is stopped again.
func Start(ctx context.Context, opts Options) (_ *Cluster, err error) {
	bins, err := checkout.Tools(opts.Root, Binaries...)
	if err != nil {
		return nil, err
	}
	if opts.APIServerPort != 0 {
		if err := PortFree(opts.APIServerPort); err != nil {
			return nil, err
		}
	}
	ctx, cancel := context.WithTimeout(ctx, startTimeout)
	defer cancel()

	c := &Cluster{logDir: opts.LogDir}
	defer func() {
		if err != nil {
			_ = c.Stop()
		}
	}()
	if err := c.startControlPlane(bins[0], bins[1], opts.APIServerPort); err != nil {
		return nil, err
	}
	kubeconfigPath := filepath.Join(opts.LogDir, componentsKubeconfig)
	if err := os.WriteFile(kubeconfigPath, c.kubeconfig, 0o600); err != nil {
		return nil, fmt.Errorf("writing the components' kubeconfig: %w", err)
	}
	for _, spec := range componentSpecs(kubeconfigPath, bins[2], bins[3], bins[4]) {
		comp, err := startComponent(spec, opts.LogDir)
		if err != nil {
			return nil, err
		}
		c.components = append(c.components, comp)
	}
	if err := c.addFakeNode(ctx); err != nil {
		return nil, fmt.Errorf("%w%s", err, c.componentFailures())
	}
	return c, nil
}

func (c *Cluster) startControlPlane(etcdPath, apiServerPath string, port int) error {
	etcdLog, err := os.Create(filepath.Join(c.logDir, "etcd.log"))
	if err != nil {
		return err
	}
	c.logs = append(c.logs, etcdLog)
	apiLog, err := os.Create(filepath.Join(c.logDir, "kube-apiserver.log"))
	if err != nil {
		return err
	}
	c.logs = append(c.logs, apiLog)
	apiServer := &envtest.APIServer{Path: apiServerPath, Out: apiLog, Err: apiLog}
	if port != 0 {
		apiServer.ListenAddr = envtest.ListenAddr{Address: "127.0.0.1", Port: strconv.Itoa(port)}
	}
	c.env = &envtest.Environment{
		ControlPlane: envtest.ControlPlane{
			Etcd:      &envtest.Etcd{Path: etcdPath, Out: etcdLog, Err: etcdLog},
			APIServer: apiServer,
		},
		ControlPlaneStartTimeout: time.Minute,
		ControlPlaneStopTimeout:  30 * time.Second,
	}
	config, err := c.env.Start()
	if err != nil {
		return fmt.Errorf("starting etcd and kube-apiserver: %w%s", err,
			logTail(filepath.Join(c.logDir, "kube-apiserver.log"), filepath.Join(c.logDir, "etcd.log")))
	}
	c.config = config
	c.kubeconfig = c.env.KubeConfig
	return nil
}

// Stop ends the components in reverse order of start, then the control plane.
// It is safe on a partly started cluster and returns every error it met.
func (c *Cluster) Stop() error {
	var errs []error
	for i := len(c.components) - 1; i >= 0; i-- {
		errs = append(errs, c.components[i].stop())
	}
	c.components = nil
	if c.env != nil {
		if err := c.env.Stop(); err != nil {
			errs = append(errs, fmt.Errorf("stopping etcd and kube-apiserver: %w", err))
		}
		c.env = nil
	}
	for _, f := range c.logs {
		_ = f.Close()
	}
	// The components' kubeconfig holds admin credentials of a cluster that is gone.
	_ = os.Remove(filepath.Join(c.logDir, componentsKubeconfig))
	c.logs = nil
	return errors.Join(errs...)
}

// Kubeconfig returns the admin kubeconfig (client certificate, system:masters).
func (c *Cluster) Kubeconfig() []byte { return c.kubeconfig }

// RESTConfig returns the admin client configuration.
func (c *Cluster) RESTConfig() *rest.Config { return rest.CopyConfig(c.config) }

// componentFailures names components that already exited, so that a
// readiness timeout points at the process that caused it.
func (c *Cluster) componentFailures() string {
	var paths []string
	for _, comp := range c.components {
		if comp.exited() {
			paths = append(paths, comp.logPath)
		}
	}
	return logTail(paths...)
}

// PortFree returns an error that says what to do when the port on 127.0.0.1 is in use.
func PortFree(port int) error {
	l, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port)))
	if err != nil {
		return fmt.Errorf("port %d on 127.0.0.1 is taken (another API server or `make cluster-up` from another checkout?): "+
			"stop that process or choose another port with LOCALCLUSTER_PORT: %w", port, err)
	}
	return l.Close()
}

// RESTConfigFromKubeconfig parses a kubeconfig such as the one Kubeconfig returns.
func RESTConfigFromKubeconfig(kubeconfig []byte) (*rest.Config, error) {
	config, err := clientcmd.RESTConfigFromKubeConfig(kubeconfig)
	if err != nil {
		return nil, fmt.Errorf("parsing the local cluster's kubeconfig: %w", err)
	}
	return config, nil
}
