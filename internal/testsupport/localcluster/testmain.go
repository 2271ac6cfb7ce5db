package localcluster

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/testsupport/checkout"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/testsupport/testgate"
)

// active is the cluster of this test binary, set on first use by a test that
// needs it (see need); release stops it after the last test.
var active struct {
	once       sync.Once
	err        error
	kubeconfig []byte
	path       string
	release    func()
}

// Main runs the tests of a package that may use the local cluster. Call it
// from TestMain:
//
//	func TestMain(m *testing.M) { localcluster.Main(m) }
//
// The cluster is had on first use, once per test binary: the one of `make
// cluster-up` if its kubeconfig answers, else one started for this binary and
// stopped when the tests end. A test that needs it skips with the reason
// unless the test environment is required (testgate: `make test`, TF_ACC);
// then a cluster that cannot be had fails the test (typically: run `make
// tools`). So pure unit tests in the same package run with Go alone.
func Main(m *testing.M) {
	code := m.Run()
	if active.release != nil {
		active.release()
	}
	os.Exit(code)
}

// need returns after the cluster is active, or ends t: skipped without the
// gate, failed with the reason when the cluster cannot be had.
func need(t testing.TB) {
	t.Helper()
	testgate.Require(t, "the local cluster")
	active.once.Do(func() { active.release, active.err = acquire() })
	if active.err != nil {
		t.Fatalf("localcluster: %v", active.err)
	}
}

// acquire sets active's cluster and returns what to do when the tests are done.
func acquire() (release func(), err error) {
	root, err := checkout.Root()
	if err != nil {
		return nil, err
	}
	ctx := context.Background()
	path := BackgroundKubeconfigPath(root)
	kubeconfig, probeErr := Probe(ctx, path)
	if probeErr == nil {
		active.kubeconfig, active.path = kubeconfig, path
		return func() {}, nil
	}
	if !errors.Is(probeErr, os.ErrNotExist) {
		fmt.Fprintf(os.Stderr, "localcluster: not using the `make cluster-up` cluster: %v\n", probeErr)
	}

	dir, err := os.MkdirTemp("", "localcluster-")
	if err != nil {
		return nil, fmt.Errorf("folder for the cluster's logs: %w", err)
	}
	started := time.Now()
	cluster, err := Start(ctx, Options{Root: root, LogDir: dir})
	if err != nil {
		_ = os.RemoveAll(dir)
		return nil, err
	}
	fmt.Fprintf(os.Stderr, "localcluster: started a cluster for this test binary in %s (`make cluster-up` keeps one running for all)\n",
		time.Since(started).Round(100*time.Millisecond))
	active.kubeconfig, active.path = cluster.Kubeconfig(), filepath.Join(dir, componentsKubeconfig)

	var once sync.Once
	stop := func() {
		once.Do(func() {
			if err := cluster.Stop(); err != nil {
				fmt.Fprintf(os.Stderr, "localcluster: %v\n", err)
			}
			_ = os.RemoveAll(dir)
		})
	}
	// An interrupted test run would otherwise leave etcd and the API server running.
	signals := make(chan os.Signal, 1)
	signal.Notify(signals, os.Interrupt, syscall.SIGTERM)
	go func() {
		if _, ok := <-signals; ok {
			stop()
			os.Exit(2)
		}
	}()
	return func() {
		signal.Stop(signals)
		close(signals)
		stop()
	}, nil
}

// Kubeconfig returns the admin kubeconfig of the local cluster as YAML.
func Kubeconfig(t testing.TB) string {
	t.Helper()
	need(t)
	return string(active.kubeconfig)
}

// KubeconfigPath returns a file holding Kubeconfig's content; do not modify it.
func KubeconfigPath(t testing.TB) string {
	t.Helper()
	need(t)
	return active.path
}

// RESTConfig returns a fresh admin client configuration for the local cluster.
func RESTConfig(t testing.TB) *rest.Config {
	t.Helper()
	need(t)
	config, err := RESTConfigFromKubeconfig(active.kubeconfig)
	if err != nil {
		t.Fatal(err)
	}
	return config
}

// Namespace creates a namespace named after the test and deletes it (with
// everything in it) when the test ends; the name is unique per call.
func Namespace(t testing.TB) string {
	t.Helper()
	clients, err := kubernetes.NewForConfig(RESTConfig(t))
	if err != nil {
		t.Fatalf("localcluster: client: %v", err)
	}
	ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: namespaceName(t.Name())}}
	if _, err := clients.CoreV1().Namespaces().Create(context.Background(), ns, metav1.CreateOptions{}); err != nil {
		t.Fatalf("localcluster: creating namespace %s: %v", ns.Name, err)
	}
	t.Cleanup(func() {
		// The namespace controller removes the content in the background; tests need not wait for it.
		err := clients.CoreV1().Namespaces().Delete(context.Background(), ns.Name, metav1.DeleteOptions{})
		if err != nil && !apierrors.IsNotFound(err) {
			t.Errorf("localcluster: deleting namespace %s: %v", ns.Name, err)
		}
	})
	return ns.Name
}

// namespaceName turns a test name into a valid, unique namespace name
// (a DNS label: lower-case letters, digits and '-', at most 63 characters).
func namespaceName(testName string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(testName) {
		if (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') {
			b.WriteRune(r)
			dash = false
		} else if !dash && b.Len() > 0 {
			b.WriteByte('-')
			dash = true
		}
	}
	base := b.String()
	if len(base) > 50 {
		base = base[:50]
	}
	base = strings.Trim(base, "-")
	if base == "" {
		base = "test"
	}
	return fmt.Sprintf("%s-%06x", base, rand.Uint32()&0xffffff)
}
