// Command testdeployer runs the project's contract-conformant test
// deployer (package testdeployer) until it gets SIGINT or SIGTERM. It
// prints "ready" once it watches the DeployItems.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/tools/clientcmd"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/testsupport/testdeployer"
)

func main() { os.Exit(mainCode()) }

func mainCode() int {
	kubeconfig := flag.String("kubeconfig", "", "kubeconfig of the cluster holding the DeployItems")
	namespace := flag.String("namespace", "default", "namespace of the DeployItems")
	itemType := flag.String("type", testdeployer.Type, "deploy item type to handle")
	identity := flag.String("identity", "testdeployer", "identity written into status.deployer")
	never := flag.Bool("never", false, "pick up no job at all")
	ignoreAbort := flag.Bool("ignore-abort", false, "finish slow work although asked to abort")
	logPath := flag.String("log", "", "file for the log (default: stderr)")
	flag.Parse()

	log := os.Stderr
	if *logPath != "" {
		f, err := os.Create(*logPath)
		if err != nil {
			fmt.Fprintln(os.Stderr, "testdeployer:", err)
			return 1
		}
		defer f.Close()
		log = f
	}
	if err := run(*kubeconfig, testdeployer.Settings{Namespace: *namespace, Type: *itemType, Identity: *identity,
		Never: *never, IgnoreAbort: *ignoreAbort, Log: log}); err != nil {
		fmt.Fprintln(os.Stderr, "testdeployer:", err)
		return 1
	}
	return 0
}

func run(kubeconfig string, s testdeployer.Settings) error {
	config, err := clientcmd.BuildConfigFromFlags("", kubeconfig)
	if err != nil {
		return err
	}
	if s.Client, err = dynamic.NewForConfig(config); err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return testdeployer.New(s).Run(ctx, func() { fmt.Println("ready") })
}
