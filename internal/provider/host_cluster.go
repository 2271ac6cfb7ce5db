package provider

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"
)

// hostSettings is the provider's kubernetes block as plain Go values.
type hostSettings struct {
	configPaths                   []string
	context                       string
	host, token                   string
	caCert, clientCert, clientKey string
	insecure                      bool
	execAPIVersion, execCommand   string
	execArgs                      []string
	execEnv                       map[string]string
	configured                    bool
}

// hostClusterSettings reads the block, falling back to KUBE_CONFIG_PATH and
// KUBECONFIG as the kubernetes and helm providers do.
func hostClusterSettings(m *kubernetesModel, getenv func(string) string) hostSettings {
	var s hostSettings
	if m != nil {
		s.configured = true
		if p := m.ConfigPath.ValueString(); p != "" {
			s.configPaths = []string{p}
		}
		s.context = m.ConfigContext.ValueString()
		s.host = m.Host.ValueString()
		s.token = m.Token.ValueString()
		s.caCert = m.ClusterCACertificate.ValueString()
		s.clientCert = m.ClientCertificate.ValueString()
		s.clientKey = m.ClientKey.ValueString()
		s.insecure = m.Insecure.ValueBool()
		if m.Exec != nil {
			s.execAPIVersion = m.Exec.APIVersion.ValueString()
			s.execCommand = m.Exec.Command.ValueString()
			for _, a := range m.Exec.Args {
				s.execArgs = append(s.execArgs, a.ValueString())
			}
			s.execEnv = m.Exec.Env
		}
	}
	if len(s.configPaths) == 0 && s.host == "" {
		for _, env := range []string{"KUBE_CONFIG_PATH", "KUBECONFIG"} {
			if v := getenv(env); v != "" {
				s.configPaths = filepath.SplitList(v)
				s.configured = true
				break
			}
		}
	}
	return s
}

// errNoHostCluster explains what to configure when an import needs the host cluster.
var errNoHostCluster = errors.New("no host cluster configured: set the provider's kubernetes block " +
	"(or KUBE_CONFIG_PATH / KUBECONFIG) to read Secret and ConfigMap imports")

// restConfig builds the client configuration. Explicit fields override the
// kubeconfig's, as in the kubernetes provider.
func (s hostSettings) restConfig() (*rest.Config, error) {
	if !s.configured && s.host == "" {
		return nil, errNoHostCluster
	}
	rules := &clientcmd.ClientConfigLoadingRules{Precedence: s.configPaths}
	overrides := &clientcmd.ConfigOverrides{CurrentContext: s.context}
	if s.host != "" {
		overrides.ClusterInfo.Server = s.host
	}
	if s.caCert != "" {
		overrides.ClusterInfo.CertificateAuthorityData = []byte(s.caCert)
	}
	if s.insecure {
		overrides.ClusterInfo.InsecureSkipTLSVerify = true
	}
	if s.clientCert != "" {
		overrides.AuthInfo.ClientCertificateData = []byte(s.clientCert)
	}
	if s.clientKey != "" {
		overrides.AuthInfo.ClientKeyData = []byte(s.clientKey)
	}
	if s.token != "" {
		overrides.AuthInfo.Token = s.token
	}
	if s.execCommand != "" {
		exec := &clientcmdapi.ExecConfig{APIVersion: s.execAPIVersion, Command: s.execCommand, Args: s.execArgs,
			InteractiveMode: clientcmdapi.NeverExecInteractiveMode}
		for k, v := range s.execEnv {
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

// hostCluster reads Secret and ConfigMap imports. The client is built on
// first use, so plans and configurations without such imports never need it.
type hostCluster struct {
	settings hostSettings
	once     sync.Once
	client   kubernetes.Interface
	err      error
}

func (h *hostCluster) clientset() (kubernetes.Interface, error) {
	h.once.Do(func() {
		cfg, err := h.settings.restConfig()
		if err != nil {
			h.err = err
			return
		}
		h.client, h.err = kubernetes.NewForConfig(cfg)
	})
	return h.client, h.err
}

// objectRef names a Secret or ConfigMap and optionally one of its keys.
type objectRef struct {
	Name, Namespace, Key string
}

func (r objectRef) String() string { return r.Namespace + "/" + r.Name }

// readSecret returns the value of key, or all keys as a map when key is empty.
func (h *hostCluster) readSecret(ctx context.Context, ref objectRef) (any, error) {
	c, err := h.clientset()
	if err != nil {
		return nil, err
	}
	s, err := c.CoreV1().Secrets(ref.Namespace).Get(ctx, ref.Name, metav1.GetOptions{})
	if err != nil {
		return nil, fmt.Errorf("reading Secret %s: %w", ref, err)
	}
	data := map[string]string{}
	for k, v := range s.Data {
		data[k] = string(v)
	}
	for k, v := range s.StringData {
		data[k] = v
	}
	return pickKey("Secret", ref, data)
}

// readConfigMap returns the value of key, or all keys as a map when key is empty.
func (h *hostCluster) readConfigMap(ctx context.Context, ref objectRef) (any, error) {
	c, err := h.clientset()
	if err != nil {
		return nil, err
	}
	cm, err := c.CoreV1().ConfigMaps(ref.Namespace).Get(ctx, ref.Name, metav1.GetOptions{})
	if err != nil {
		return nil, fmt.Errorf("reading ConfigMap %s: %w", ref, err)
	}
	data := map[string]string{}
	for k, v := range cm.Data {
		data[k] = v
	}
	for k, v := range cm.BinaryData {
		data[k] = string(v)
	}
	return pickKey("ConfigMap", ref, data)
}

// pickKey decodes the selected value as JSON or YAML when it parses
// (Landscaper stores structured import values that way) and keeps it as a
// string otherwise.
func pickKey(kind string, ref objectRef, data map[string]string) (any, error) {
	if ref.Key == "" {
		out := make(map[string]any, len(data))
		for k, v := range data {
			out[k] = v
		}
		return out, nil
	}
	v, ok := data[ref.Key]
	if !ok {
		keys := make([]string, 0, len(data))
		for k := range data {
			keys = append(keys, k)
		}
		return nil, fmt.Errorf("%s %s has no key %q (keys: %s)", kind, ref, ref.Key, strings.Join(keys, ", "))
	}
	return decodeStructured(v), nil
}

// decodeStructured returns v decoded when it is a JSON document, else v.
func decodeStructured(v string) any {
	var out any
	if err := json.Unmarshal([]byte(v), &out); err == nil {
		return out
	}
	return v
}
