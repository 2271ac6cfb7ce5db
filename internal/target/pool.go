// Package target turns Landscaper Target objects of type
// landscaper.gardener.cloud/kubernetes-cluster into Kubernetes clients.
// One Pool lives per provider instance; every deploy item against the same
// cluster shares one set of clients (one discovery cache, one connection
// pool and one generous rate limit), so parallel items are not throttled
// by client-go's default of 5 requests per second.
package target

import (
	"crypto/sha256"
	"encoding/json"
	"net/http"
	"strings"
	"sync"

	"k8s.io/client-go/discovery"
	"k8s.io/client-go/discovery/cached/memory"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/metadata"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/restmapper"
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"
	"k8s.io/client-go/util/flowcontrol"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/failure"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/redact"
)

// Rate limits of every client the pool builds. Deploy items run in
// parallel and one item may write hundreds of objects; the API server's
// own priority and fairness protects it better than a client-side limit.
const (
	DefaultQPS   = 200
	DefaultBurst = 400
)

// Pool caches one Clients per distinct kubeconfig. It is safe for
// concurrent use.
type Pool struct {
	wrap           func(http.RoundTripper) http.RoundTripper
	qps            float32
	burst          int
	allowUntrusted bool

	mu      sync.Mutex
	clients map[[sha256.Size]byte]*Clients
	// byConfig finds the clients of a target with an inline kubeconfig by
	// its config as given (Clients).
	byConfig map[string]*Clients
	trusted  map[[sha256.Size]byte]bool
	// explained: where an untrusted kubeconfig came from (Explain).
	explained map[[sha256.Size]byte]explanation
	// fromProvider and allowedRefs: provider_kubeconfigs.go.
	fromProvider map[string]string
	allowedRefs  map[providerRef]bool
}

// Option configures a Pool.
type Option func(*Pool)

// WithWrapTransport wraps the HTTP transport of every client the pool
// builds; tests use it to count the requests a deployer sends.
func WithWrapTransport(wrap func(http.RoundTripper) http.RoundTripper) Option {
	return func(p *Pool) { p.wrap = wrap }
}

// WithRateLimit replaces DefaultQPS and DefaultBurst (the provider's
// cluster_qps and cluster_burst); qps <= 0 means no client-side limit.
func WithRateLimit(qps float32, burst int) Option {
	return func(p *Pool) { p.qps, p.burst = qps, burst }
}

// NewPool returns an empty pool.
func NewPool(opts ...Option) *Pool {
	p := &Pool{qps: DefaultQPS, burst: DefaultBurst, clients: map[[sha256.Size]byte]*Clients{}, byConfig: map[string]*Clients{}, trusted: map[[sha256.Size]byte]bool{}, explained: map[[sha256.Size]byte]explanation{}}
	for _, o := range opts {
		o(p)
	}
	return p
}

// Clients are the clients of one cluster. All fields are safe for
// concurrent use and must not be modified.
type Clients struct {
	// Config is the pool's rest.Config for the cluster; copy it before
	// changing anything (rest.CopyConfig).
	Config  *rest.Config
	Dynamic dynamic.Interface
	// Metadata reads and writes objects with only their metadata in the
	// response (ApplyMetadata); it shares Dynamic's connections and rate
	// limit.
	Metadata  metadata.Interface
	Discovery discovery.CachedDiscoveryInterface
	// Mapper resolves kinds through the cached discovery; call
	// Mapper.Reset() after new CRDs are established.
	Mapper *restmapper.DeferredDiscoveryRESTMapper
	// Raw is the parsed kubeconfig (Helm needs a clientcmd.ClientConfig).
	// It holds credentials: never log it.
	Raw clientcmdapi.Config
	// Namespace is the kubeconfig's default namespace ("default" if unset).
	Namespace string
}

// Clients returns the clients for t, building them on first use. It
// contacts no server, so an unreachable cluster shows up as a (transient)
// error of the first request, while a target that can never work is a
// terminal error here. Errors never contain the kubeconfig.
func (p *Pool) Clients(t *api.Target) (*Clients, error) {
	// Every deployer call asks, several times: a target that carries its
	// kubeconfig is found by its config as given, without decoding it.
	inline := t != nil && t.Spec.Type == api.KubernetesClusterTargetType
	if inline {
		_, fromProvider := providerReference(*t)
		inline = !fromProvider
	}
	if inline {
		p.mu.Lock()
		c, ok := p.byConfig[string(t.Spec.Config)]
		p.mu.Unlock()
		if ok {
			return c, nil
		}
	}
	kubeconfig, err := p.kubeconfigOf(t)
	if err != nil {
		return nil, err
	}
	key := sha256.Sum256([]byte(kubeconfig))
	p.mu.Lock()
	defer p.mu.Unlock()
	c, ok := p.clients[key]
	if !ok {
		if c, err = p.build(t.Metadata.Name, kubeconfig, p.trusted[key] || p.allowUntrusted, p.explained[key]); err != nil {
			return nil, err
		}
		p.clients[key] = c
	}
	if inline {
		p.byConfig[string(t.Spec.Config)] = c
	}
	return c, nil
}

func (p *Pool) kubeconfigOf(t *api.Target) (string, error) {
	if t == nil {
		return "", failure.Terminalf("MissingTarget", "the deploy item names no target, but this deployer needs a %s target", api.KubernetesClusterTargetType)
	}
	if kubeconfig, ok, err := p.providerKubeconfig(t); ok {
		return kubeconfig, err
	}
	if t.Spec.Type != api.KubernetesClusterTargetType {
		return "", failure.Terminalf("WrongTargetType", "target %q has type %q, want %q", t.Metadata.Name, t.Spec.Type, api.KubernetesClusterTargetType)
	}
	var cfg api.KubernetesClusterConfig
	if err := json.Unmarshal(t.Spec.Config, &cfg); err != nil {
		// json errors quote types and offsets, never values.
		return "", failure.Terminalf("InvalidTarget", "target %q: config is not {\"kubeconfig\": \"<yaml>\"}: %v", t.Metadata.Name, err)
	}
	if strings.TrimSpace(cfg.Kubeconfig) == "" {
		if err := api.UnsupportedClusterConfig(*t); err != nil {
			return "", failure.NewTerminal("UnsupportedTarget", err)
		}
		return "", failure.Terminalf("InvalidTarget", "target %q: config.kubeconfig is empty", t.Metadata.Name)
	}
	return cfg.Kubeconfig, nil
}

func (p *Pool) build(targetName, kubeconfig string, trusted bool, why explanation) (*Clients, error) {
	invalid := func(what string, err error) error {
		return failure.Terminalf("InvalidKubeconfig", "target %q: %s: %s", targetName, what, redact.Kubeconfig(err, kubeconfig))
	}
	raw, err := clientcmd.Load([]byte(kubeconfig))
	if err != nil {
		return nil, invalid("kubeconfig cannot be parsed", err)
	}
	if !trusted {
		if err := checkUntrusted(raw, why); err != nil {
			return nil, failure.Terminalf("UntrustedKubeconfig", "target %q: %v", targetName, err)
		}
	}
	clientConfig := clientcmd.NewDefaultClientConfig(*raw, &clientcmd.ConfigOverrides{})
	cfg, err := clientConfig.ClientConfig()
	if err != nil {
		return nil, invalid("kubeconfig is not usable", err)
	}
	ns, _, err := clientConfig.Namespace()
	if err != nil || ns == "" {
		ns = "default"
	}
	cfg.QPS, cfg.Burst = p.qps, p.burst
	if p.qps <= 0 {
		// client-go reads a zero QPS as "use the default" (5 per second);
		// only a negative one turns the client-side limit off.
		cfg.QPS, cfg.Burst = -1, 0
	}
	if p.wrap != nil {
		cfg.Wrap(p.wrap)
	}
	// Dynamic and Metadata share one HTTP client and one rate limiter, so
	// a cluster_qps holds for both together, as it did for Dynamic alone.
	shared := rest.CopyConfig(cfg)
	if shared.QPS > 0 {
		shared.RateLimiter = flowcontrol.NewTokenBucketRateLimiter(shared.QPS, shared.Burst)
	}
	httpClient, err := rest.HTTPClientFor(shared)
	if err != nil {
		return nil, invalid("cannot build a client", err)
	}
	dyn, err := dynamic.NewForConfigAndClient(shared, httpClient)
	if err != nil {
		return nil, invalid("cannot build a client", err)
	}
	meta, err := metadata.NewForConfigAndClient(shared, httpClient)
	if err != nil {
		return nil, invalid("cannot build a client", err)
	}
	disc, err := discovery.NewDiscoveryClientForConfig(cfg)
	if err != nil {
		return nil, invalid("cannot build a discovery client", err)
	}
	cached := memory.NewMemCacheClient(disc)
	return &Clients{
		Config:    cfg,
		Dynamic:   dyn,
		Metadata:  meta,
		Discovery: cached,
		Mapper:    restmapper.NewDeferredDiscoveryRESTMapper(cached),
		Raw:       *raw,
		Namespace: ns,
	}, nil
}
