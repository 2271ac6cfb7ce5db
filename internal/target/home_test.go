package target

import (
	"os"
	"path/filepath"
	"testing"

	"k8s.io/client-go/tools/clientcmd"
)

const homeKubeconfig = `apiVersion: v1
kind: Config
clusters: [{name: c, cluster: {server: "https://10.0.0.1:6443", certificate-authority-data: Y2E=}}]
users: [{name: u, user: {exec: {apiVersion: client.authentication.k8s.io/v1, command: get-token, args: [--cluster, c], interactiveMode: Never}}}]
contexts:
- {name: a, context: {cluster: c, user: u, namespace: apps}}
- {name: b, context: {cluster: c, user: u}}
current-context: a
`

// The host cluster as a kubeconfig keeps what the kubernetes block
// chose (context, overrides, an exec plugin) and has the home's
// namespace; it reaches the same server as RESTConfig.
func TestHostSettingsKubeconfig(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config")
	if err := os.WriteFile(path, []byte(homeKubeconfig), 0o600); err != nil {
		t.Fatal(err)
	}
	s := HostSettings{Configured: true, ConfigPaths: []string{path}, Context: "b", Token: "override"}
	kc, err := s.Kubeconfig("deployitems")
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := clientcmd.Load([]byte(kc))
	if err != nil {
		t.Fatal(err)
	}
	kctx := cfg.Contexts[cfg.CurrentContext]
	cluster, user := cfg.Clusters[kctx.Cluster], cfg.AuthInfos[kctx.AuthInfo]
	if kctx.Namespace != "deployitems" || cluster.Server != "https://10.0.0.1:6443" || string(cluster.CertificateAuthorityData) != "ca" ||
		user.Token != "override" || user.Exec == nil || user.Exec.Command != "get-token" {
		t.Errorf("kubeconfig:\n%s", kc)
	}
	if _, err := (HostSettings{}).Kubeconfig("x"); err == nil {
		t.Error("no host cluster, but a kubeconfig")
	}
	moved, err := WithNamespace(homeKubeconfig, "other")
	if err != nil {
		t.Fatal(err)
	}
	if cfg, err := clientcmd.Load([]byte(moved)); err != nil || cfg.Contexts["a"].Namespace != "other" || cfg.Contexts["b"].Namespace != "" {
		t.Errorf("WithNamespace: %v\n%s", err, moved)
	}
}
