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

// LearningClusters is a ClusterAccess that also learns every credential a
// cluster function obtains (a token, the kubeconfig holding it, its
// base64 form), so that the provider masks them wherever they could
// surface: diagnostics, logs, non-sensitive attributes.
type LearningClusters struct {
	ClusterAccess
	Learn func(values ...string)
}

// learn registers values as secrets when req's cluster access learns them.
func learn(req Request, values ...string) {
	switch l := req.Cluster.(type) {
	case LearningClusters:
		if l.Learn != nil {
			l.Learn(values...)
		}
	case *TokenBook:
		l.learn(values...)
	}
}

// Where these functions run. Landscaper calls a cluster from any template
// while its controller renders it. Here subinstallation and import
// executions are rendered at plan time, which must not reach a network,
// and a credential minted there would change every plan; so export
// executions, which run during apply after the deploy items, get cluster
// access (Request.Cluster), and deploy executions get a TokenBook
// (tokenbook.go) for getServiceAccountKubeconfig only. Everywhere else the
// functions are an error naming the function and where it can be used.

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
			return withExpiration(kubeconfig, expires), nil
		},
		"getOidcKubeconfig": oidcKubeconfig,
	}
	out["getShootAdminKubeconfig"] = func(args []any) (any, error) {
		kubeconfig, _, err := shootAdminKubeconfig(req, "getShootAdminKubeconfig", args)
		return kubeconfig, err
	}
	out["getShootAdminKubeconfigWithExpirationTimestamp"] = func(args []any) (any, error) {
		kubeconfig, expires, err := shootAdminKubeconfig(req, "getShootAdminKubeconfigWithExpirationTimestamp", args)
		if err != nil {
			return nil, err
		}
		return withExpiration(kubeconfig, expires), nil
	}
	return out
}

// serviceAccountKubeconfig asks the target's cluster for a token of a
// service account (TokenRequest API) and returns the target's kubeconfig
// with that token as its only user, base64 encoded, as Landscaper does.
func serviceAccountKubeconfig(req Request, fn string, args []any) (string, time.Time, error) {
	name, namespace, seconds, clients, err := clusterCall(req, fn, "service account", args)
	if err != nil {
		return "", time.Time{}, err
	}
	var token string
	var expires time.Time
	if book, ok := req.Cluster.(*TokenBook); ok {
		token, expires, err = book.token(req.context(), clients, clusterServer(clients), name, namespace, seconds)
		if errors.Is(err, ErrTokenAtApply) {
			return "", time.Time{}, fmt.Errorf("%s: service account %s/%s: %w", fn, namespace, name, err)
		}
	} else {
		token, expires, err = requestToken(req.context(), clients, name, namespace, seconds)
	}
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
	encoded := base64.StdEncoding.EncodeToString(data)
	learn(req, token, encoded)
	return encoded, expires, nil
}

// clusterServer is the API server URL of clients' current context, which
// keys a recorded token to its cluster.
func clusterServer(clients *target.Clients) string {
	if kctx, ok := clients.Raw.Contexts[clients.Raw.CurrentContext]; ok && kctx != nil {
		if c, ok := clients.Raw.Clusters[kctx.Cluster]; ok && c != nil {
			return c.Server
		}
	}
	return ""
}

// clusterCall reads the arguments Landscaper's cluster functions share —
// an object's name and namespace, expiration seconds, a target — and
// returns the clients of the target's cluster. what names the object
// in messages.
func clusterCall(req Request, fn, what string, args []any) (name, namespace string, seconds int64, clients *target.Clients, err error) {
	if len(args) != 4 {
		return "", "", 0, nil, fmt.Errorf("%s: want 4 arguments (%s name, namespace, expiration seconds, target), got %d", fn, what, len(args))
	}
	name, ok1 := args[0].(string)
	namespace, ok2 := args[1].(string)
	if !ok1 || !ok2 || name == "" || namespace == "" {
		return "", "", 0, nil, fmt.Errorf("%s: the %s name and namespace must be non-empty strings", fn, what)
	}
	seconds, err = int64Arg(args[2])
	if err != nil || seconds <= 0 {
		return "", "", 0, nil, fmt.Errorf("%s: expiration seconds must be a positive integer", fn)
	}
	if req.Cluster == nil {
		return "", "", 0, nil, fmt.Errorf("%s: needs cluster access, which only export executions have "+
			"(they run during apply; deploy executions get service account tokens only; subinstallation and import executions "+
			"are rendered at plan time without a network, "+
			"and a credential minted there would change every plan): call it in an export execution and pass the kubeconfig on "+
			"as an export — a target export another installation imports — or give the credential as a landscaper_target", fn)
	}
	t, err := targetArg(fn, args[3])
	if err != nil {
		return "", "", 0, nil, err
	}
	clients, err = req.Cluster.Clients(&t)
	if err != nil {
		return "", "", 0, nil, fmt.Errorf("%s: %w", fn, err)
	}
	return name, namespace, seconds, clients, nil
}

// context is the request's context, Background without one.
func (r Request) context() context.Context {
	if r.Context == nil {
		return context.Background()
	}
	return r.Context
}

// withExpiration is what the functions ending in WithExpirationTimestamp
// return, as Landscaper returns it.
func withExpiration(kubeconfig string, expires time.Time) map[string]any {
	return map[string]any{
		"kubeconfig":                  kubeconfig,
		"expirationTimestamp":         expires.Unix(),
		"expirationTimestampReadable": expires.Format(time.RFC3339),
	}
}

var shoots = schema.GroupVersionResource{Group: "core.gardener.cloud", Version: "v1beta1", Resource: "shoots"}

// shootAdminKubeconfig is Landscaper's getShootAdminKubeconfig(shoot name,
// shoot namespace, expiration seconds, garden target): Gardener's
// shoots/adminkubeconfig subresource (an AdminKubeconfigRequest) on the
// garden cluster the target reaches returns a short-lived admin
// kubeconfig of the shoot, base64 encoded as Gardener returns it.
func shootAdminKubeconfig(req Request, fn string, args []any) (string, time.Time, error) {
	if _, ok := req.Cluster.(*TokenBook); ok {
		// A deploy execution: its token book records service account
		// tokens only; a shoot's admin kubeconfig would be asked for at plan.
		return "", time.Time{}, fmt.Errorf("%s: works in export executions only: call it there and pass the kubeconfig on "+
			"as a target export, or use getServiceAccountKubeconfig, which deploy executions can call", fn)
	}
	name, namespace, seconds, clients, err := clusterCall(req, fn, "shoot", args)
	if err != nil {
		return "", time.Time{}, err
	}
	ar := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "authentication.gardener.cloud/v1alpha1",
		"kind":       "AdminKubeconfigRequest",
		"metadata":   map[string]any{"name": name, "namespace": namespace},
		"spec":       map[string]any{"expirationSeconds": seconds},
	}}
	out, err := clients.Dynamic.Resource(shoots).Namespace(namespace).Create(req.context(), ar, metav1.CreateOptions{}, "adminkubeconfig")
	if err != nil {
		return "", time.Time{}, fmt.Errorf("%s: shoot %s/%s: admin kubeconfig request failed: %w", fn, namespace, name, err)
	}
	encoded, _, _ := unstructured.NestedString(out.Object, "status", "kubeconfig")
	stamp, _, _ := unstructured.NestedString(out.Object, "status", "expirationTimestamp")
	data, err := base64.StdEncoding.DecodeString(encoded)
	if err != nil || len(data) == 0 {
		return "", time.Time{}, fmt.Errorf("%s: shoot %s/%s: the admin kubeconfig request returned no kubeconfig", fn, namespace, name)
	}
	// The kubeconfig's credentials, not its text: each of its lines
	// would count as a secret, "kind: Config" too.
	learn(req, encoded)
	if cfg, err := clientcmd.Load(data); err == nil {
		for _, u := range cfg.AuthInfos {
			learn(req, u.Token, u.Password, string(u.ClientKeyData), base64.StdEncoding.EncodeToString(u.ClientKeyData))
		}
	}
	expires, err := time.Parse(time.RFC3339, stamp)
	if err != nil {
		return "", time.Time{}, fmt.Errorf("%s: shoot %s/%s: the admin kubeconfig request returned expirationTimestamp %q", fn, namespace, name, stamp)
	}
	return encoded, expires, nil
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
