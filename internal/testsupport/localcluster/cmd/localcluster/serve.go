package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/testsupport/localcluster"
)

// serveCommand is the hidden command `up` starts in the background.
const serveCommand = "serve"

// serve runs the cluster until SIGTERM or SIGINT. The kubeconfig appears only
// once the cluster is ready and disappears before it stops, so a test binary
// that finds the file finds a working cluster.
func serve(ctx context.Context, root string, port int) error {
	ctx, cancel := signal.NotifyContext(ctx, syscall.SIGTERM, syscall.SIGINT)
	defer cancel()
	dir := localcluster.StateDir(root)
	started := time.Now()
	cluster, err := localcluster.Start(ctx, localcluster.Options{Root: root, LogDir: dir, APIServerPort: port})
	if err != nil {
		return err
	}
	defer func() {
		if err := cluster.Stop(); err != nil {
			fmt.Fprintf(os.Stderr, "localcluster: %v\n", err)
		}
		fmt.Println("local cluster stopped")
	}()
	kubeconfig := localcluster.BackgroundKubeconfigPath(root)
	if err := writeAtomically(kubeconfig, cluster.Kubeconfig()); err != nil {
		return err
	}
	defer os.Remove(kubeconfig)
	fmt.Printf("local cluster ready in %s, API server https://127.0.0.1:%d\n", time.Since(started).Round(100*time.Millisecond), port)
	<-ctx.Done()
	_ = os.Remove(kubeconfig)
	return nil
}

func writeAtomically(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".*")
	if err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		_ = tmp.Close()
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return nil
}
