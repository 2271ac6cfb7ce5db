package localcluster

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

// componentSpec is one process started next to the control plane.
type componentSpec struct {
	name string
	path string
	args []string
}

// componentSpecs start from the team's verified recipe: secure
// ports off so that no fixed port can collide, no leader election because
// there is only one of each, and no service-account token controller because
// envtest's API server runs without the ServiceAccount admission plugin.
func componentSpecs(kubeconfig, controllerManager, scheduler, kwok string) []componentSpec {
	auth := []string{
		"--kubeconfig=" + kubeconfig,
		"--authentication-kubeconfig=" + kubeconfig,
		"--authorization-kubeconfig=" + kubeconfig,
		"--leader-elect=false",
		"--secure-port=0",
	}
	return []componentSpec{
		{name: "kube-controller-manager", path: controllerManager, args: append(append([]string{}, auth...),
			"--controllers=*,-serviceaccount-token",
			"--use-service-account-credentials=false",
			// On a loaded 2-core machine kwok's heartbeats can come late; the
			// default 40s grace made the node flap to NotReady (and tainted
			// unreachable) for seconds every minute.
			"--node-monitor-grace-period=3m",
		)},
		{name: "kube-scheduler", path: scheduler, args: append([]string{}, auth...)},
		{name: "kwok", path: kwok, args: []string{
			"--kubeconfig=" + kubeconfig,
			"--manage-all-nodes=true",
			// Renew a node lease, as a kubelet does, so the node's liveness
			// does not hang on the rarer status updates alone.
			"--node-lease-duration-seconds=40",
		}},
	}
}

// component is a started process whose output goes to logPath.
type component struct {
	name    string
	logPath string
	cmd     *exec.Cmd
	done    chan struct{}
	log     *os.File
}

func startComponent(spec componentSpec, logDir string) (*component, error) {
	logPath := filepath.Join(logDir, spec.name+".log")
	log, err := os.Create(logPath)
	if err != nil {
		return nil, fmt.Errorf("creating the log of %s: %w", spec.name, err)
	}
	cmd := exec.Command(spec.path, spec.args...)
	cmd.Stdout, cmd.Stderr = log, log
	cmd.SysProcAttr = dieWithParent()
	if err := cmd.Start(); err != nil {
		_ = log.Close()
		return nil, fmt.Errorf("starting %s: %w", spec.name, err)
	}
	c := &component{name: spec.name, logPath: logPath, cmd: cmd, done: make(chan struct{}), log: log}
	go func() {
		_ = cmd.Wait()
		close(c.done)
	}()
	return c, nil
}

func (c *component) exited() bool {
	select {
	case <-c.done:
		return true
	default:
		return false
	}
}

// stop asks the component to end and kills it if it has not after 10 seconds.
func (c *component) stop() error {
	defer c.log.Close()
	if c.exited() {
		return nil
	}
	if err := c.cmd.Process.Signal(syscall.SIGTERM); err != nil && !errors.Is(err, os.ErrProcessDone) {
		return fmt.Errorf("stopping %s: %w", c.name, err)
	}
	select {
	case <-c.done:
		return nil
	case <-time.After(10 * time.Second):
	}
	if err := c.cmd.Process.Kill(); err != nil && !errors.Is(err, os.ErrProcessDone) {
		return fmt.Errorf("killing %s: %w", c.name, err)
	}
	<-c.done
	return nil
}

// logTail returns the last lines of each log, to append to an error message.
func logTail(paths ...string) string {
	var b strings.Builder
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil || len(data) == 0 {
			continue
		}
		lines := bytes.Split(bytes.TrimRight(data, "\n"), []byte("\n"))
		if len(lines) > 15 {
			lines = lines[len(lines)-15:]
		}
		fmt.Fprintf(&b, "\n--- last lines of %s:\n%s", p, bytes.Join(lines, []byte("\n")))
	}
	return b.String()
}
