package target

import (
	"strings"
	"testing"
)

// Every kubeconfig field through which client-go runs a program, reads a
// file or sends requests through a proxy is refused in a kubeconfig that
// is not the user's, naming the field and never the value; the same
// kubeconfig passes once trusted or with the provider's opt-in.
func TestPoolClients_UntrustedCredentialFields(t *testing.T) {
	const (
		cluster = `{server: "https://127.0.0.1:6443", insecure-skip-tls-verify: true}`
		user    = `{token: inline-token-is-fine}`
	)
	kc := func(cluster, user string) string {
		return "apiVersion: v1\nkind: Config\nclusters: [{name: c, cluster: " + cluster + "}]\n" +
			"users: [{name: u, user: " + user + "}]\ncontexts: [{name: c, context: {cluster: c, user: u}}]\ncurrent-context: c\n"
	}
	for _, c := range []struct{ field, kubeconfig string }{
		{"users[].user.exec", kc(cluster, `{exec: {apiVersion: client.authentication.k8s.io/v1, command: /secret/bin/id, interactiveMode: Never}}`)},
		{"users[].user.auth-provider", kc(cluster, `{auth-provider: {name: oidc, config: {client-id: secret-client}}}`)},
		{"users[].user.tokenFile", kc(cluster, `{tokenFile: /secret/token}`)},
		{"users[].user.client-certificate", kc(cluster, `{client-certificate: /secret/cert.pem, client-key-data: a2V5}`)},
		{"users[].user.client-key", kc(cluster, `{client-certificate-data: Y2VydA==, client-key: /secret/key.pem}`)},
		{"clusters[].cluster.certificate-authority", kc(`{server: "https://127.0.0.1:6443", certificate-authority: /secret/ca.pem}`, user)},
		{"clusters[].cluster.proxy-url", kc(`{server: "https://127.0.0.1:6443", proxy-url: "http://secret-proxy.example:3128"}`, user)},
	} {
		t.Run(c.field, func(t *testing.T) {
			_, err := NewPool().Clients(targetWith(t, c.kubeconfig))
			if err == nil || !strings.Contains(err.Error(), c.field+" (") {
				t.Fatalf("untrusted: want an error naming %s, got %v", c.field, err)
			}
			if strings.Contains(err.Error(), "secret") {
				t.Errorf("the error quotes a value: %v", err)
			}
			trusting := NewPool()
			trusting.Trust(c.kubeconfig)
			// A trusted kubeconfig passes the check; building clients
			// may still fail on the missing files, but not because of it.
			if _, err := trusting.Clients(targetWith(t, c.kubeconfig)); err != nil && strings.Contains(err.Error(), "did not come from your configuration") {
				t.Errorf("trusted: refused: %v", err)
			}
			if _, err := NewPool(WithUntrustedCredentials(true)).Clients(targetWith(t, c.kubeconfig)); err != nil &&
				strings.Contains(err.Error(), "did not come from your configuration") {
				t.Errorf("opted in: refused: %v", err)
			}
		})
	}
	if _, err := NewPool().Clients(targetWith(t, kc(cluster, user))); err != nil {
		t.Errorf("inline credentials refused: %v", err)
	}
}
