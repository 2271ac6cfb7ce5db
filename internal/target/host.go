package target

import (
	"errors"
	"fmt"

	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"
)

// HostSettings say how to reach the host cluster: the cluster the
// provider's own `kubernetes` block (or KUBE_CONFIG_PATH / KUBECONFIG)
// names, from which Secret and ConfigMap imports are read. Deploy items
// never use it; they reach their clusters through targets (Pool).
type HostSettings struct {
	ConfigPaths                   []string
	Context                       string
	Host, Token                   string
	CACert, ClientCert, ClientKey string
	Insecure                      bool
	ExecAPIVersion, ExecCommand   string
	ExecArgs                      []string
	ExecEnv                       map[string]string
	// Configured is true when a kubernetes block or a kubeconfig
	// environment variable was given.
	Configured bool
}

// ErrNoHostCluster explains what to configure when an import needs the
// host cluster.
var ErrNoHostCluster = errors.New("no host cluster configured: set the provider's kubernetes block " +
	"(or KUBE_CONFIG_PATH / KUBECONFIG) to read Secret and ConfigMap imports")

// RESTConfig builds the client configuration. Explicit fields override
// the kubeconfig's, as in the kubernetes provider.
func (s HostSettings) RESTConfig() (*rest.Config, error) {
	if !s.Configured && s.Host == "" {
		return nil, ErrNoHostCluster
	}
	rules := &clientcmd.ClientConfigLoadingRules{Precedence: s.ConfigPaths}
	overrides := &clientcmd.ConfigOverrides{CurrentContext: s.Context}
	if s.Host != "" {
		overrides.ClusterInfo.Server = s.Host
	}
	if s.CACert != "" {
		overrides.ClusterInfo.CertificateAuthorityData = []byte(s.CACert)
	}
	if s.Insecure {
		overrides.ClusterInfo.InsecureSkipTLSVerify = true
	}
	if s.ClientCert != "" {
		overrides.AuthInfo.ClientCertificateData = []byte(s.ClientCert)
	}
	if s.ClientKey != "" {
		overrides.AuthInfo.ClientKeyData = []byte(s.ClientKey)
	}
	if s.Token != "" {
		overrides.AuthInfo.Token = s.Token
	}
	if s.ExecCommand != "" {
		exec := &clientcmdapi.ExecConfig{APIVersion: s.ExecAPIVersion, Command: s.ExecCommand, Args: s.ExecArgs,
			InteractiveMode: clientcmdapi.NeverExecInteractiveMode}
		for k, v := range s.ExecEnv {
			exec.Env = append(exec.Env, clientcmdapi.ExecEnvVar{Name: k, Value: v})
		}
		overrides.AuthInfo.Exec = exec
	}
	cfg, err := clientcmd.NewNonInteractiveDeferredLoadingClientConfig(rules, overrides).ClientConfig()
	if err != nil {
		// clientcmd's messages name files and contexts, never credentials.
		return nil, fmt.Errorf("host cluster configuration: %w", err)
	}
	cfg.QPS, cfg.Burst = 100, 200
	return cfg, nil
}
