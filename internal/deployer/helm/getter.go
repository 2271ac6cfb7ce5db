package helm

import (
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/target"
)

// clientGetter gives Helm the pool's clients of the target cluster, so that
// Helm shares the discovery cache and rate limit of every other deploy item
// and never reads a kubeconfig file from disk.
type clientGetter struct {
	clients   *target.Clients
	namespace string
}

var _ genericclioptions.RESTClientGetter = (*clientGetter)(nil)

func (g *clientGetter) ToRESTConfig() (*rest.Config, error) {
	return rest.CopyConfig(g.clients.Config), nil
}

func (g *clientGetter) ToDiscoveryClient() (discovery.CachedDiscoveryInterface, error) {
	return g.clients.Discovery, nil
}

func (g *clientGetter) ToRESTMapper() (meta.RESTMapper, error) { return g.clients.Mapper, nil }

// ToRawKubeConfigLoader is the kubeconfig with the release namespace as
// default namespace; Helm reads the namespace from it.
func (g *clientGetter) ToRawKubeConfigLoader() clientcmd.ClientConfig {
	return clientcmd.NewDefaultClientConfig(g.clients.Raw, &clientcmd.ConfigOverrides{Context: clientcmdapi.Context{Namespace: g.namespace}})
}
