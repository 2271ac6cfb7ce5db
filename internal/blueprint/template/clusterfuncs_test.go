package template

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	authnv1 "k8s.io/api/authentication/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/clientcmd"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/target"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/testsupport/localcluster"
)

func TestMain(m *testing.M) { localcluster.Main(m) }

// TestServiceAccountKubeconfig_LocalCluster proves both engines' export
// executions get a kubeconfig whose token the cluster accepts as the
// service account (TokenRequest), with the expiration Landscaper reports.
func TestServiceAccountKubeconfig_LocalCluster(t *testing.T) {
	kubeconfig := localcluster.Kubeconfig(t)
	ns := localcluster.Namespace(t)
	admin, err := kubernetes.NewForConfig(localcluster.RESTConfig(t))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	sa := &corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Name: "deployer"}}
	if _, err := admin.CoreV1().ServiceAccounts(ns).Create(ctx, sa, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	pool := target.NewPool()
	pool.Trust(kubeconfig)
	cluster, err := json.Marshal(api.NewTarget("cluster", "", api.KubernetesClusterTargetType,
		mustMarshal(t, api.KubernetesClusterConfig{Kubeconfig: kubeconfig})))
	if err != nil {
		t.Fatal(err)
	}
	var clusterValue map[string]any
	if err := json.Unmarshal(cluster, &clusterValue); err != nil {
		t.Fatal(err)
	}
	templates := map[string]string{
		TypeGoTemplate: `{{ $k := getServiceAccountKubeconfigWithExpirationTimestamp "deployer" .ns 3600 .cluster }}
exports:
  kubeconfig: {{ getServiceAccountKubeconfig "deployer" .ns 3600 .cluster | b64dec | quote }}
  expires: {{ $k.expirationTimestamp }}
  readable: {{ $k.expirationTimestampReadable | quote }}`,
		TypeSpiff: `k: (( getServiceAccountKubeconfigWithExpirationTimestamp("deployer", ns, 3600, cluster) ))
exports:
  kubeconfig: (( base64_decode(getServiceAccountKubeconfig("deployer", ns, 3600, cluster)) ))
  expires: (( k.expirationTimestamp ))
  readable: (( k.expirationTimestampReadable ))`,
	}
	for typ, tmpl := range templates {
		t.Run(typ, func(t *testing.T) {
			var learned []string
			clusters := LearningClusters{ClusterAccess: pool, Learn: func(v ...string) { learned = append(learned, v...) }}
			res, err := Run(Request{Kind: "export execution", Execution: inline(typ, tmpl), Cluster: clusters, Context: ctx,
				Values: map[string]any{"ns": ns, "cluster": clusterValue}})
			if err != nil {
				t.Fatal(err)
			}
			exports, _ := res.Output["exports"].(map[string]any)
			kc, _ := exports["kubeconfig"].(string)
			cfg, err := clientcmd.RESTConfigFromKubeConfig([]byte(kc))
			if err != nil {
				t.Fatalf("kubeconfig: %v", err)
			}
			if !slices.Contains(learned, cfg.BearerToken) {
				t.Error("the service account's token was not learned as a secret")
			}
			if strings.Contains(kc, "client-key-data") {
				t.Error("the service account kubeconfig keeps the admin's credentials")
			}
			as, err := kubernetes.NewForConfig(cfg)
			if err != nil {
				t.Fatal(err)
			}
			review, err := as.AuthenticationV1().SelfSubjectReviews().Create(ctx, &authnv1.SelfSubjectReview{}, metav1.CreateOptions{})
			if err != nil {
				t.Fatalf("the token is not accepted: %v", err)
			}
			if want := "system:serviceaccount:" + ns + ":deployer"; review.Status.UserInfo.Username != want {
				t.Errorf("authenticated as %q, want %q", review.Status.UserInfo.Username, want)
			}
			expires, err := time.Parse(time.RFC3339, exports["readable"].(string))
			if err != nil || time.Until(expires) < 30*time.Minute || time.Until(expires) > 2*time.Hour {
				t.Errorf("expiration %v (%v), want about an hour from now", exports["readable"], err)
			}
			// Integers keep their precision through rendering (int64), so compare the digits.
			if got := fmt.Sprint(exports["expires"]); got != strconv.FormatInt(expires.Unix(), 10) {
				t.Errorf("expirationTimestamp %v, want %d", exports["expires"], expires.Unix())
			}
		})
	}
}

func mustMarshal(t *testing.T, v any) json.RawMessage {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return data
}
