package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/testsupport/landscaperrecording"
)

// common are the flags of apply, wait, reconcile and record.
type common struct {
	kubeconfig, landscape, registry string
	timeout                         time.Duration
}

func (c *common) flags(fs *flag.FlagSet) {
	fs.StringVar(&c.kubeconfig, "kubeconfig", "", "kubeconfig of the cluster Landscaper runs against (also the landscape's target cluster)")
	fs.StringVar(&c.landscape, "landscape", "harbor", "the landscape (internal/testsupport/landscaperrecording/testdata/landscapes/<name>)")
	fs.StringVar(&c.registry, "registry", "", "host:port of the OCI registry on loopback the landscape pulls charts from")
	fs.DurationVar(&c.timeout, "timeout", 15*time.Minute, "how long to wait for Landscaper")
}

// load reads the kubeconfig and builds the landscape with it.
func (c *common) load() (*rest.Config, string, *landscaperrecording.Landscape, error) {
	if c.kubeconfig == "" {
		return nil, "", nil, errors.New("-kubeconfig is required")
	}
	raw, err := os.ReadFile(c.kubeconfig)
	if err != nil {
		return nil, "", nil, err
	}
	config, err := clientcmd.RESTConfigFromKubeConfig(raw)
	if err != nil {
		return nil, "", nil, err
	}
	config.WarningHandler = rest.NoWarnings{}
	l, err := landscaperrecording.BuildLandscape(c.landscape, landscaperrecording.LandscapeOptions{Kubeconfig: string(raw), Registry: c.registry})
	return config, string(raw), l, err
}

// apply creates the landscape's namespaces, pushes its charts to the
// registry and applies its objects, then its root Installations (each
// with Landscaper's reconcile annotation, which starts it).
func apply(args []string) error {
	var c common
	fs := flag.NewFlagSet("apply", flag.ExitOnError)
	c.flags(fs)
	_ = fs.Parse(args)
	config, _, l, err := c.load()
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), c.timeout)
	defer cancel()
	if err := ensureNamespaces(ctx, c.kubeconfig, l.HostNamespace, l.TargetNamespace); err != nil {
		return err
	}
	if len(l.Push) > 0 && c.registry == "" {
		return fmt.Errorf("landscape %s pulls charts from a registry: give -registry", l.Name)
	}
	refs, err := l.PushCharts(c.registry)
	if err != nil {
		return err
	}
	for _, ref := range refs {
		fmt.Println("pushed", ref)
	}
	client, err := dynamic.NewForConfig(config)
	if err != nil {
		return err
	}
	for _, o := range append(append([]*unstructured.Unstructured{}, l.Objects...), l.Installations...) {
		if err := create(ctx, client, o); err != nil {
			return err
		}
		fmt.Printf("created %s %s/%s\n", o.GetKind(), o.GetNamespace(), o.GetName())
	}
	return nil
}

// resources of the kinds a landscape's inputs hold.
var resources = map[string]schema.GroupVersionResource{
	"Secret":       {Version: "v1", Resource: "secrets"},
	"Target":       {Group: "landscaper.gardener.cloud", Version: "v1alpha1", Resource: "targets"},
	"DataObject":   {Group: "landscaper.gardener.cloud", Version: "v1alpha1", Resource: "dataobjects"},
	"Context":      {Group: "landscaper.gardener.cloud", Version: "v1alpha1", Resource: "contexts"},
	"Installation": {Group: "landscaper.gardener.cloud", Version: "v1alpha1", Resource: "installations"},
}

func create(ctx context.Context, client dynamic.Interface, o *unstructured.Unstructured) error {
	res, ok := resources[o.GetKind()]
	if !ok {
		return fmt.Errorf("%s %s: a kind landscaper-record does not apply", o.GetKind(), o.GetName())
	}
	_, err := client.Resource(res).Namespace(o.GetNamespace()).Create(ctx, o, metav1.CreateOptions{FieldManager: "landscaper-record"})
	if err != nil {
		return fmt.Errorf("creating %s %s/%s: %w", o.GetKind(), o.GetNamespace(), o.GetName(), err)
	}
	return nil
}

func ensureNamespaces(ctx context.Context, kubeconfig string, names ...string) error {
	config, err := clientcmd.BuildConfigFromFlags("", kubeconfig)
	if err != nil {
		return err
	}
	clients, err := kubernetes.NewForConfig(config)
	if err != nil {
		return err
	}
	for _, n := range names {
		_, err := clients.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: n}}, metav1.CreateOptions{})
		if err != nil && !apierrors.IsAlreadyExists(err) {
			return fmt.Errorf("namespace %s: %w", n, err)
		}
	}
	return nil
}
