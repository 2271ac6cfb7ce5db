package template

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/target"
)

// ClusterAccess builds clients for a target cluster; *target.Pool is one.
// Template functions that need a cluster (getServiceAccountKubeconfig…)
// use it.
type ClusterAccess interface {
	Clients(t *api.Target) (*target.Clients, error)
}

// Where these functions run. Landscaper calls a cluster from any template
// while its controller renders it. Here deploy, subinstallation and import
// executions are rendered at plan time, which must not reach a network,
// and a token minted there would change every plan; so only export
// executions, which run during apply after the deploy items, get cluster
// access (Request.Cluster). Everywhere else the functions are an error
// naming the function and where it can be used.

// gardenerFunctions need Gardener's shoot API, which this provider does not
// speak; calling one is an error naming the function.
var gardenerFunctions = []string{
	"getShootAdminKubeconfig",
	"getShootAdminKubeconfigWithExpirationTimestamp",
}

// clusterLookups are the functions that work on a target's cluster.
func clusterLookups(req Request) map[string]lookupFunc {
	out := map[string]lookupFunc{
		"getServiceAccountKubeconfig": func(args []any) (any, error) {
			kubeconfig, _, err := serviceAccountKubeconfig(req, "getServiceAccountKubeconfig", args)
			return kubeconfig, err
		},
		"getServiceAccountKubeconfigWithExpirationTimestamp": func(args []any) (any, error) {
			const fn = "getServiceAccountKubeconfigWithExpirationTimestamp"
			kubeconfig, expires, err := serviceAccountKubeconfig(req, fn, args)
			if err != nil {
				return nil, err
			}
			return map[string]any{
				"kubeconfig":                  kubeconfig,
				"expirationTimestamp":         expires.Unix(),
				"expirationTimestampReadable": expires.Format(time.RFC3339),
			}, nil
		},
		"getOidcKubeconfig": oidcKubeconfig,
	}
	for _, name := range gardenerFunctions {
		out[name] = unsupportedFunction(name)
	}
	return out
}

// serviceAccountKubeconfig asks the target's cluster for a token of a
// service account (TokenRequest API) and returns the target's kubeconfig
// with that token as its only user, base64 encoded, as Landscaper does.
func serviceAccountKubeconfig(req Request, fn string, args []any) (string, time.Time, error) {
	if len(args) != 4 {
		return "", time.Time{}, fmt.Errorf("%s: want 4 arguments (service account name, namespace, expiration seconds, target), got %d", fn, len(args))
	}
	name, ok1 := args[0].(string)
	namespace, ok2 := args[1].(string)
	if !ok1 || !ok2 || name == "" || namespace == "" {
		return "", time.Time{}, fmt.Errorf("%s: the service account name and namespace must be non-empty strings", fn)
	}
	seconds, err := int64Arg(args[2])
	if err != nil || seconds <= 0 {
		return "", time.Time{}, fmt.Errorf("%s: expiration seconds must be a positive integer", fn)
	}
	if req.Cluster == nil {
		return "", time.Time{}, fmt.Errorf("%s: needs cluster access, which only export executions have "+
			"(they run during apply; deploy, subinstallation and import executions are rendered at plan time without a network)", fn)
	}
	t, err := targetArg(fn, args[3])
	if err != nil {
		return "", time.Time{}, err
	}
	clients, err := req.Cluster.Clients(&t)
	if err != nil {
		return "", time.Time{}, fmt.Errorf("%s: %w", fn, err)
	}
	ctx := req.Context
	if ctx == nil {
		ctx = context.Background()
	}
	token, expires, err := requestToken(ctx, clients, name, namespace, seconds)
	if err != nil {
		return "", time.Time{}, fmt.Errorf("%s: service account %s/%s: %w", fn, namespace, name, err)
	}
	cfg, err := currentContextOnly(clients.Raw, fn)
	if err != nil {
		return "", time.Time{}, err
	}
	cfg.Contexts[cfg.CurrentContext].AuthInfo = name
	cfg.AuthInfos = map[string]*clientcmdapi.AuthInfo{name: {Token: token}}
	data, err := clientcmd.Write(*cfg)
	if err != nil {
		return "", time.Time{}, fmt.Errorf("%s: writing the kubeconfig failed", fn)
	}
	return base64.StdEncoding.EncodeToString(data), expires, nil
}

var serviceAccounts = schema.GroupVersionResource{Version: "v1", Resource: "serviceaccounts"}

// requestToken creates a TokenRequest for the service account.
func requestToken(ctx context.Context, clients *target.Clients, name, namespace string, seconds int64) (string, time.Time, error) {
	tr := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "authentication.k8s.io/v1",
		"kind":       "TokenRequest",
		// The dynamic client puts the object's name into the URL of the
		// subresource: .../serviceaccounts/<name>/token.
		"metadata": map[string]any{"name": name},
		"spec":     map[string]any{"expirationSeconds": seconds},
	}}
	out, err := clients.Dynamic.Resource(serviceAccounts).Namespace(namespace).Create(ctx, tr, metav1.CreateOptions{}, "token")
	if err != nil {
		return "", time.Time{}, fmt.Errorf("token request failed: %w", err)
	}
	token, _, _ := unstructured.NestedString(out.Object, "status", "token")
	stamp, _, _ := unstructured.NestedString(out.Object, "status", "expirationTimestamp")
	if token == "" {
		return "", time.Time{}, errors.New("token request returned no token")
	}
	expires, err := time.Parse(time.RFC3339, stamp)
	if err != nil {
		return "", time.Time{}, fmt.Errorf("token request returned expirationTimestamp %q", stamp)
	}
	return token, expires, nil
}

// oidcKubeconfig is Landscaper's getOidcKubeconfig(issuerURL, clientID,
// target): the target's kubeconfig whose user logs in through
// `kubectl oidc-login`, base64 encoded. It builds text only and reaches no
// cluster, so it works in every execution.
func oidcKubeconfig(args []any) (any, error) {
	const fn = "getOidcKubeconfig"
	if len(args) != 3 {
		return nil, fmt.Errorf("%s: want 3 arguments (issuer URL, client ID, target), got %d", fn, len(args))
	}
	issuer, ok1 := args[0].(string)
	clientID, ok2 := args[1].(string)
	if !ok1 || !ok2 {
		return nil, fmt.Errorf("%s: the issuer URL and the client ID must be strings", fn)
	}
	t, err := targetArg(fn, args[2])
	if err != nil {
		return nil, err
	}
	var tc api.KubernetesClusterConfig
	if err := json.Unmarshal(t.Spec.Config, &tc); err != nil || tc.Kubeconfig == "" {
		return nil, fmt.Errorf("%s: the target has no kubeconfig", fn)
	}
	raw, err := clientcmd.Load([]byte(tc.Kubeconfig))
	if err != nil {
		return nil, fmt.Errorf("%s: the target's kubeconfig cannot be parsed", fn)
	}
	cfg, err := currentContextOnly(*raw, fn)
	if err != nil {
		return nil, err
	}
	user := cfg.Contexts[cfg.CurrentContext].AuthInfo
	cfg.AuthInfos = map[string]*clientcmdapi.AuthInfo{user: {Exec: &clientcmdapi.ExecConfig{
		APIVersion: "client.authentication.k8s.io/v1beta1",
		Command:    "kubectl",
		Args: []string{"oidc-login", "get-token",
			"--oidc-issuer-url=" + issuer, "--oidc-client-id=" + clientID,
			"--oidc-extra-scope=email", "--oidc-extra-scope=profile", "--oidc-extra-scope=offline_access",
			"--oidc-use-pkce", "--grant-type=auto"},
		InteractiveMode: clientcmdapi.IfAvailableExecInteractiveMode,
	}}}
	data, err := clientcmd.Write(*cfg)
	if err != nil {
		return nil, fmt.Errorf("%s: writing the kubeconfig failed", fn)
	}
	return base64.StdEncoding.EncodeToString(data), nil
}

// currentContextOnly copies cfg down to its current context and that
// context's cluster; the caller sets the user.
func currentContextOnly(cfg clientcmdapi.Config, fn string) (*clientcmdapi.Config, error) {
	kctx, ok := cfg.Contexts[cfg.CurrentContext]
	if !ok || kctx == nil {
		return nil, fmt.Errorf("%s: the target's kubeconfig has no current context", fn)
	}
	cluster, ok := cfg.Clusters[kctx.Cluster]
	if !ok || cluster == nil {
		return nil, fmt.Errorf("%s: the target's kubeconfig has no cluster %q", fn, kctx.Cluster)
	}
	c := *kctx
	out := clientcmdapi.NewConfig()
	out.CurrentContext = cfg.CurrentContext
	out.Contexts[cfg.CurrentContext] = &c
	out.Clusters[kctx.Cluster] = cluster.DeepCopy()
	return out, nil
}

// targetArg reads a Target object as templates see it (.imports.<target>).
func targetArg(fn string, v any) (api.Target, error) {
	var t api.Target
	data, err := json.Marshal(v)
	if err == nil {
		err = json.Unmarshal(data, &t)
	}
	if err != nil || t.Spec.Type == "" {
		return api.Target{}, fmt.Errorf("%s: the last argument must be a target (e.g. .imports.cluster)", fn)
	}
	return t, nil
}

func int64Arg(v any) (int64, error) {
	switch n := v.(type) {
	case int:
		return int64(n), nil
	case int64:
		return n, nil
	case float64:
		if n != math.Trunc(n) || math.Abs(n) > math.MaxInt64/2 {
			return 0, errors.New("not an integer")
		}
		return int64(n), nil
	case json.Number:
		return n.Int64()
	}
	return 0, fmt.Errorf("%T is not an integer", v)
}
