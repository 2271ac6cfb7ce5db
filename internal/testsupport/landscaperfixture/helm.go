package landscaperfixture

import (
	"bytes"
	"context"
	"fmt"
	"sort"
	"strings"

	"helm.sh/helm/v3/pkg/action"
	"helm.sh/helm/v3/pkg/chart/loader"
	"helm.sh/helm/v3/pkg/chartutil"
	"helm.sh/helm/v3/pkg/engine"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/discovery/cached/memory"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/restmapper"
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"
)

// installRelease installs the release the way Landscaper's Helm deployer
// does when helmDeployment is not false: Helm SDK install into the
// configured namespace, release records as Secrets there, no wait (the
// deployer checks readiness itself afterwards).
func installRelease(config *rest.Config, kubeconfig string, rel Release) error {
	getter, err := newGetter(config, kubeconfig, rel.Namespace)
	if err != nil {
		return err
	}
	cfg := &action.Configuration{}
	if err := cfg.Init(getter, rel.Namespace, "secret", func(string, ...any) {}); err != nil {
		return fmt.Errorf("helm: %w", err)
	}
	ch, err := loader.LoadArchive(bytes.NewReader(rel.Chart))
	if err != nil {
		return fmt.Errorf("helm chart: %w", err)
	}
	install := action.NewInstall(cfg)
	install.ReleaseName, install.Namespace = rel.Name, rel.Namespace
	if _, err := install.Run(ch, rel.Values); err != nil {
		return fmt.Errorf("installing Helm release %s: %w", rel.Name, err)
	}
	return nil
}

// renderedChart is what Landscaper's Helm deployer applies for rel when
// helmDeployment is false: the chart's templates rendered with rel's
// values (as `helm template` would), each object in rel's namespace.
func renderedChart(rel Release) []object {
	ch, err := loader.LoadArchive(bytes.NewReader(rel.Chart))
	if err != nil {
		panic(err)
	}
	opts := chartutil.ReleaseOptions{Name: rel.Name, Namespace: rel.Namespace, Revision: 1, IsInstall: true}
	vals, err := chartutil.ToRenderValues(ch, rel.Values, opts, chartutil.DefaultCapabilities)
	if err != nil {
		panic(err)
	}
	files, err := engine.Render(ch, vals)
	if err != nil {
		panic(err)
	}
	names := make([]string, 0, len(files))
	for name := range files {
		if strings.HasSuffix(name, ".yaml") && strings.TrimSpace(files[name]) != "" {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	out := make([]object, 0, len(names))
	for _, name := range names {
		o := mustYAMLObject(files[name])
		md, _ := o["metadata"].(map[string]any)
		md["namespace"] = rel.Namespace
		out = append(out, o)
	}
	return out
}

// getter gives Helm the target cluster without a kubeconfig file.
type getter struct {
	config    *rest.Config
	raw       clientcmdapi.Config
	namespace string
	discovery discovery.CachedDiscoveryInterface
}

var _ genericclioptions.RESTClientGetter = (*getter)(nil)

func newGetter(config *rest.Config, kubeconfig, namespace string) (*getter, error) {
	raw, err := clientcmd.Load([]byte(kubeconfig))
	if err != nil {
		return nil, fmt.Errorf("target kubeconfig: %w", err)
	}
	dc, err := discovery.NewDiscoveryClientForConfig(config)
	if err != nil {
		return nil, err
	}
	return &getter{config: config, raw: *raw, namespace: namespace, discovery: memory.NewMemCacheClient(dc)}, nil
}

func (g *getter) ToRESTConfig() (*rest.Config, error) { return rest.CopyConfig(g.config), nil }

func (g *getter) ToDiscoveryClient() (discovery.CachedDiscoveryInterface, error) {
	return g.discovery, nil
}

func (g *getter) ToRESTMapper() (apimeta.RESTMapper, error) {
	return restmapper.NewDeferredDiscoveryRESTMapper(g.discovery), nil
}

func (g *getter) ToRawKubeConfigLoader() clientcmd.ClientConfig {
	return clientcmd.NewDefaultClientConfig(g.raw, &clientcmd.ConfigOverrides{Context: clientcmdapi.Context{Namespace: g.namespace}})
}

var deploymentsGVR = schema.GroupVersionResource{Group: "apps", Version: "v1", Resource: "deployments"}

// waitAvailable waits until each named Deployment reports its replicas
// available for its current generation.
func waitAvailable(ctx context.Context, client dynamic.Interface, namespace string, names ...string) error {
	for _, name := range names {
		if err := waitFor(ctx, client.Resource(deploymentsGVR).Namespace(namespace), "Deployment", name, "available", available); err != nil {
			return err
		}
	}
	return nil
}

func available(u *unstructured.Unstructured) bool {
	generation := u.GetGeneration()
	observed, _, _ := unstructured.NestedInt64(u.Object, "status", "observedGeneration")
	want, found, _ := unstructured.NestedInt64(u.Object, "spec", "replicas")
	if !found {
		want = 1
	}
	ready, _, _ := unstructured.NestedInt64(u.Object, "status", "availableReplicas")
	updated, _, _ := unstructured.NestedInt64(u.Object, "status", "updatedReplicas")
	return observed >= generation && ready >= want && updated >= want
}
