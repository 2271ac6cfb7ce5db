// Command localcluster runs the local test cluster in the background for
// `make cluster-up` and `make cluster-down`, so that every test binary of the
// checkout reuses one cluster instead of starting its own.
//
//	localcluster up     start it unless it already answers; returns when it is ready
//	localcluster down   stop it; nothing to do when it is not running
//
// State lives in <checkout>/.cluster: kubeconfig (only while ready),
// localcluster.pid, and one log per component.
package main

import (
	"context"
	"fmt"
	"os"
	"strconv"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/testsupport/checkout"
)

// defaultPort is the API server's port; LOCALCLUSTER_PORT overrides it.
const defaultPort = 6443

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintf(os.Stderr, "localcluster: %v\n", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	if len(args) != 1 {
		return fmt.Errorf("usage: localcluster up|down")
	}
	root, err := checkout.Root()
	if err != nil {
		return err
	}
	ctx := context.Background()
	switch args[0] {
	case "up":
		port, err := apiServerPort()
		if err != nil {
			return err
		}
		return up(ctx, root, port)
	case "down":
		return down(root)
	case serveCommand:
		port, err := apiServerPort()
		if err != nil {
			return err
		}
		return serve(ctx, root, port)
	default:
		return fmt.Errorf("unknown command %q: usage: localcluster up|down", args[0])
	}
}

func apiServerPort() (int, error) {
	v := os.Getenv("LOCALCLUSTER_PORT")
	if v == "" {
		return defaultPort, nil
	}
	port, err := strconv.Atoi(v)
	if err != nil || port < 1 || port > 65535 {
		return 0, fmt.Errorf("LOCALCLUSTER_PORT=%q is not a port number", v)
	}
	return port, nil
}
