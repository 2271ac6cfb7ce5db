package target

import (
	"fmt"

	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/redact"
)

// A home is a cluster the provider itself writes into for a deployer
// (deployer.Homed: the DeployItems of an external deployer), named by a
// kubeconfig like every target, so the pool and the inventory treat it
// like any target cluster. Its kubeconfig's namespace is where the
// deployer's objects and the installation's inventory go. Homes come from
// the provider's own configuration only: trust them (Pool.Trust).

// Kubeconfig returns the host cluster as a kubeconfig whose current
// context has namespace: what RESTConfig builds, with every field the
// kubernetes block overrides. Credentials in files stay file references
// (absolute paths), an exec plugin stays a plugin; nothing is contacted.
func (s HostSettings) Kubeconfig(namespace string) (string, error) {
	cfg, err := s.RESTConfig()
	if err != nil {
		return "", err
	}
	return writeKubeconfig(fromREST(cfg, namespace))
}

// WithNamespace returns kubeconfig with the namespace of its current
// context set to namespace. Errors never quote the kubeconfig.
func WithNamespace(kubeconfig, namespace string) (string, error) {
	cfg, err := clientcmd.Load([]byte(kubeconfig))
	if err != nil {
		return "", fmt.Errorf("kubeconfig cannot be parsed: %s", redact.Kubeconfig(err, kubeconfig))
	}
	kctx, ok := cfg.Contexts[cfg.CurrentContext]
	if !ok {
		return "", fmt.Errorf("kubeconfig has no current context %q", cfg.CurrentContext)
	}
	kctx.Namespace = namespace
	return writeKubeconfig(cfg)
}

func writeKubeconfig(cfg *clientcmdapi.Config) (string, error) {
	b, err := clientcmd.Write(*cfg)
	if err != nil {
		return "", fmt.Errorf("writing a kubeconfig: %w", err)
	}
	return string(b), nil
}

// fromREST is the kubeconfig of one cluster, user and context that
// reaches what cfg reaches.
func fromREST(cfg *rest.Config, namespace string) *clientcmdapi.Config {
	const name = "home"
	cluster := clientcmdapi.NewCluster()
	cluster.Server = cfg.Host
	cluster.InsecureSkipTLSVerify = cfg.Insecure
	cluster.TLSServerName = cfg.ServerName
	cluster.CertificateAuthority, cluster.CertificateAuthorityData = cfg.CAFile, cfg.CAData
	user := clientcmdapi.NewAuthInfo()
	user.ClientCertificate, user.ClientCertificateData = cfg.CertFile, cfg.CertData
	user.ClientKey, user.ClientKeyData = cfg.KeyFile, cfg.KeyData
	user.Token, user.TokenFile = cfg.BearerToken, cfg.BearerTokenFile
	user.Username, user.Password = cfg.Username, cfg.Password
	user.Impersonate, user.ImpersonateUID = cfg.Impersonate.UserName, cfg.Impersonate.UID
	user.ImpersonateGroups, user.ImpersonateUserExtra = cfg.Impersonate.Groups, cfg.Impersonate.Extra
	user.Exec, user.AuthProvider = cfg.ExecProvider, cfg.AuthProvider
	kctx := clientcmdapi.NewContext()
	kctx.Cluster, kctx.AuthInfo, kctx.Namespace = name, name, namespace
	out := clientcmdapi.NewConfig()
	out.Clusters[name], out.AuthInfos[name], out.Contexts[name] = cluster, user, kctx
	out.CurrentContext = name
	return out
}
