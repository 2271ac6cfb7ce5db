package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/testsupport/checkout"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/testsupport/landscaperrecording"
)

// systemNamespace is where Landscaper's charts run its controllers; its
// health check and monitor keep their objects there.
const systemNamespace = "landscaper-system"

// The controllers' configuration files, as Landscaper's charts would
// write them for this setup: every controller on loopback against one
// cluster, CRDs deployed by the Landscaper controller, plain-HTTP OCI
// registries allowed (the registry on loopback).
var configs = map[string]string{
	"landscaper.yaml": `apiVersion: config.landscaper.gardener.cloud/v1alpha1
kind: LandscaperConfiguration
controllers:
  installations: {workers: 5}
  executions: {workers: 5}
  deployItems: {workers: 5}
  contexts:
    workers: 2
    config:
      default:
        disable: false
        excludedNamespaces: [kube-system, kube-public, kube-node-lease, ` + systemNamespace + `]
registry:
  oci:
    allowPlainHttp: true
    insecureSkipVerify: false
crdManagement:
  deployCrd: true
  forceUpdate: true
deployItemTimeouts:
  pickup: 5m
lsDeployments:
  lsController: landscaper
  lsMainController: landscaper-main
  webHook: landscaper-webhooks
  deploymentsNamespace: ` + systemNamespace + `
  lsHealthCheckName: landscaper
useOCMLib: true
`,
	"manifest-deployer.yaml": `apiVersion: manifest.deployer.landscaper.gardener.cloud/v1alpha2
kind: Configuration
controller: {workers: 5}
`,
	// Without the OCM library (its chart's default): in v0.98 the OCM
	// library pulls charts by reference over HTTPS only, while the legacy
	// client honours allowPlainHttp for the registry on loopback. How the
	// chart is pulled leaves no trace in what the deployer writes.
	"helm-deployer.yaml": `apiVersion: helm.deployer.landscaper.gardener.cloud/v1alpha1
kind: Configuration
oci:
  allowPlainHttp: true
  insecureSkipVerify: false
controller: {workers: 5}
useOCMLib: false
`,
	"mock-deployer.yaml": `apiVersion: mock.deployer.landscaper.gardener.cloud/v1alpha1
kind: Configuration
`,
}

// controller is one process of the setup.
type controller struct {
	name, binary, config string
	env                  []string
	// what is how a recording describes it.
	what string
}

// setup is Landscaper as its charts deploy it: the Landscaper controller
// twice (installations and executions; and, as central-landscaper,
// contexts — the "default" Context of each namespace —, deploy item
// timeouts and target syncs) and one process per deployer.
var setup = []controller{
	{name: "landscaper-main", binary: "landscaper-controller", config: "landscaper.yaml",
		what: "installations and executions"},
	{name: "landscaper-central", binary: "landscaper-controller", config: "landscaper.yaml", env: []string{"LANDSCAPER_MODE=central-landscaper"},
		what: "LANDSCAPER_MODE=central-landscaper: contexts (each namespace's default Context), deploy item pickup timeouts, target syncs"},
	{name: "manifest-deployer", binary: "manifest-deployer-controller", config: "manifest-deployer.yaml", what: "kubernetes-manifest deploy items"},
	{name: "helm-deployer", binary: "helm-deployer-controller", config: "helm-deployer.yaml", what: "helm deploy items"},
	{name: "mock-deployer", binary: "mock-deployer-controller", config: "mock-deployer.yaml", what: "mock deploy items"},
}

// controllersMeta describes the setup in a recording.
func controllersMeta() []landscaperrecording.Controller {
	out := make([]landscaperrecording.Controller, 0, len(setup))
	for _, c := range setup {
		settings := []string{"--config " + c.config + " (landscaper-record controllers writes it)", c.what}
		settings = append(settings, c.env...)
		out = append(out, landscaperrecording.Controller{Name: c.binary, Settings: settings})
	}
	return out
}

// runControllers writes the configuration files into dir and runs the
// setup's controllers from bin against the cluster of kubeconfig until
// it is interrupted; then it stops them. Each logs into dir/<name>.log.
func runControllers(args []string) error {
	fs := flag.NewFlagSet("controllers", flag.ExitOnError)
	bin := fs.String("bin", "", "folder with Landscaper's controller binaries (landscaper-controller, manifest-deployer-controller, helm-deployer-controller, mock-deployer-controller)")
	kubeconfig := fs.String("kubeconfig", "", "kubeconfig of the cluster Landscaper runs against")
	dir := fs.String("dir", "", "folder for the configuration files and logs")
	registry := fs.String("registry", "", "also run an OCI registry (tools/testenv/install.sh registry) on this loopback host:port, storage in -dir")
	_ = fs.Parse(args)
	if *bin == "" || *kubeconfig == "" || *dir == "" {
		return errors.New("controllers needs -bin, -kubeconfig and -dir")
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := ensureNamespaces(ctx, *kubeconfig, systemNamespace); err != nil {
		return err
	}
	if err := os.MkdirAll(*dir, 0o755); err != nil {
		return err
	}
	for name, text := range configs {
		if err := os.WriteFile(filepath.Join(*dir, name), []byte(text), 0o644); err != nil {
			return err
		}
	}
	var procs []*exec.Cmd
	defer func() {
		for _, p := range procs {
			_ = p.Process.Signal(syscall.SIGTERM)
		}
		for _, p := range procs {
			_ = p.Wait()
		}
	}()
	exited := make(chan string, len(setup)+1)
	if *registry != "" {
		p, err := startRegistry(*registry, *dir)
		if err != nil {
			return err
		}
		procs = append(procs, p)
		go func() {
			_ = p.Wait()
			exited <- "registry"
		}()
	}
	for i, c := range setup {
		if i == 1 {
			// Both Landscaper processes deploy the CRDs; the second starts
			// once the first had the time to, so they do not race.
			select {
			case <-time.After(10 * time.Second):
			case <-ctx.Done():
				return nil
			}
		}
		p, err := start(c, *bin, *kubeconfig, *dir)
		if err != nil {
			return err
		}
		procs = append(procs, p)
		go func() {
			_ = p.Wait()
			exited <- c.name
		}()
	}
	fmt.Printf("%d processes running (logs in %s); interrupt to stop them\n", len(procs), *dir)
	select {
	case <-ctx.Done():
		return nil
	case name := <-exited:
		return fmt.Errorf("%s exited: see %s", name, filepath.Join(*dir, name+".log"))
	}
}

// startRegistry runs the CNCF distribution registry the project builds
// as a tool, plain HTTP on addr, its storage in dir.
func startRegistry(addr, dir string) (*exec.Cmd, error) {
	root, err := checkout.Root()
	if err != nil {
		return nil, err
	}
	bins, err := checkout.Tools(root, "registry")
	if err != nil {
		return nil, err
	}
	config := filepath.Join(dir, "registry.yaml")
	text := fmt.Sprintf("version: 0.1\nlog: {level: info, accesslog: {disabled: true}}\nstorage: {filesystem: {rootdirectory: %q}}\nhttp: {addr: %q}\n",
		filepath.Join(dir, "registry-storage"), addr)
	if err := os.WriteFile(config, []byte(text), 0o644); err != nil {
		return nil, err
	}
	return start(controller{name: "registry", binary: filepath.Base(bins[0]), env: []string{"OTEL_TRACES_EXPORTER=none"}},
		filepath.Dir(bins[0]), "", dir, "serve", config)
}

// start runs one process, its output into dir/<name>.log; a controller
// gets its configuration file, anything else args.
func start(c controller, bin, kubeconfig, dir string, args ...string) (*exec.Cmd, error) {
	log, err := os.Create(filepath.Join(dir, c.name+".log"))
	if err != nil {
		return nil, err
	}
	if c.config != "" {
		args = []string{"--config=" + filepath.Join(dir, c.config)}
	}
	cmd := exec.Command(filepath.Join(bin, c.binary), args...)
	cmd.Env = append(os.Environ(), "KUBECONFIG="+kubeconfig, "MY_POD_NAMESPACE="+systemNamespace, "MY_POD_NAME="+c.name)
	cmd.Env = append(cmd.Env, c.env...)
	cmd.Stdout, cmd.Stderr = log, log
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting %s: %w", c.name, err)
	}
	return cmd, nil
}
