package localcluster_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/clientcmd"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/testsupport/localcluster"
)

func TestMain(m *testing.M) { localcluster.Main(m) }

// readyTimeout is generous for a loaded 2-core machine; kwok usually needs seconds.
const readyTimeout = 90 * time.Second

func clientsFor(t *testing.T) *kubernetes.Clientset {
	t.Helper()
	clients, err := kubernetes.NewForConfig(localcluster.RESTConfig(t))
	if err != nil {
		t.Fatal(err)
	}
	return clients
}

func podTemplate(app string) corev1.PodTemplateSpec {
	return corev1.PodTemplateSpec{
		ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": app}},
		Spec: corev1.PodSpec{Containers: []corev1.Container{{
			Name: "main", Image: "registry.invalid/never-pulled:1",
		}}},
	}
}

func selector(app string) *metav1.LabelSelector {
	return &metav1.LabelSelector{MatchLabels: map[string]string{"app": app}}
}

// waitFor polls check until it reports done, failing the test with check's last reason.
func waitFor(t *testing.T, what string, check func(ctx context.Context) (done bool, reason string, err error)) {
	t.Helper()
	var last string
	err := wait.PollUntilContextTimeout(context.Background(), 250*time.Millisecond, readyTimeout, true,
		func(ctx context.Context) (bool, error) {
			done, reason, err := check(ctx)
			last = reason
			return done, err
		})
	if err != nil {
		t.Fatalf("%s: %v (last seen: %s)", what, err, last)
	}
}

// TestCluster_DeploymentBecomesAvailable proves that controllers, scheduler and kwok run: 2 replicas become Available.
func TestCluster_DeploymentBecomesAvailable(t *testing.T) {
	ns, clients := localcluster.Namespace(t), clientsFor(t)
	replicas := int32(2)
	d := &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Name: "web"},
		Spec:       appsv1.DeploymentSpec{Replicas: &replicas, Selector: selector("web"), Template: podTemplate("web")},
	}
	if _, err := clients.AppsV1().Deployments(ns).Create(context.Background(), d, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "deployment web", func(ctx context.Context) (bool, string, error) {
		got, err := clients.AppsV1().Deployments(ns).Get(ctx, "web", metav1.GetOptions{})
		if err != nil {
			return false, "", err
		}
		available := false
		for _, c := range got.Status.Conditions {
			available = available || (c.Type == appsv1.DeploymentAvailable && c.Status == corev1.ConditionTrue)
		}
		done := available && got.Status.AvailableReplicas == replicas && got.Status.ObservedGeneration == got.Generation
		return done, fmt.Sprintf("available=%v availableReplicas=%d", available, got.Status.AvailableReplicas), nil
	})

	pods, err := clients.CoreV1().Pods(ns).List(context.Background(), metav1.ListOptions{LabelSelector: "app=web"})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range pods.Items {
		if p.Spec.NodeName != localcluster.NodeName || p.Status.Phase != corev1.PodRunning {
			t.Errorf("pod %s: node %q phase %s, want node %q phase Running", p.Name, p.Spec.NodeName, p.Status.Phase, localcluster.NodeName)
		}
	}
}

// TestCluster_StatefulSetBecomesReady proves that stateful sets roll out their ordered replicas.
func TestCluster_StatefulSetBecomesReady(t *testing.T) {
	ns, clients := localcluster.Namespace(t), clientsFor(t)
	replicas := int32(2)
	s := &appsv1.StatefulSet{
		ObjectMeta: metav1.ObjectMeta{Name: "db"},
		Spec: appsv1.StatefulSetSpec{
			Replicas: &replicas, Selector: selector("db"), Template: podTemplate("db"), ServiceName: "db",
		},
	}
	if _, err := clients.AppsV1().StatefulSets(ns).Create(context.Background(), s, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "statefulset db", func(ctx context.Context) (bool, string, error) {
		got, err := clients.AppsV1().StatefulSets(ns).Get(ctx, "db", metav1.GetOptions{})
		if err != nil {
			return false, "", err
		}
		done := got.Status.ReadyReplicas == replicas && got.Status.ObservedGeneration == got.Generation
		return done, fmt.Sprintf("readyReplicas=%d", got.Status.ReadyReplicas), nil
	})
}

// TestCluster_DaemonSetBecomesReady proves that a daemon set runs one ready pod on the fake node.
func TestCluster_DaemonSetBecomesReady(t *testing.T) {
	ns, clients := localcluster.Namespace(t), clientsFor(t)
	ds := &appsv1.DaemonSet{
		ObjectMeta: metav1.ObjectMeta{Name: "agent"},
		Spec:       appsv1.DaemonSetSpec{Selector: selector("agent"), Template: podTemplate("agent")},
	}
	if _, err := clients.AppsV1().DaemonSets(ns).Create(context.Background(), ds, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "daemonset agent", func(ctx context.Context) (bool, string, error) {
		got, err := clients.AppsV1().DaemonSets(ns).Get(ctx, "agent", metav1.GetOptions{})
		if err != nil {
			return false, "", err
		}
		done := got.Status.DesiredNumberScheduled == 1 && got.Status.NumberReady == 1 &&
			got.Status.ObservedGeneration == got.Generation
		return done, fmt.Sprintf("desired=%d ready=%d", got.Status.DesiredNumberScheduled, got.Status.NumberReady), nil
	})
}

// TestNamespace_DeletedAtCleanup proves that Namespace removes what it created once the test ends.
func TestNamespace_DeletedAtCleanup(t *testing.T) {
	clients := clientsFor(t)
	var ns string
	t.Run("inner", func(t *testing.T) { ns = localcluster.Namespace(t) })
	got, err := clients.CoreV1().Namespaces().Get(context.Background(), ns, metav1.GetOptions{})
	switch {
	case apierrors.IsNotFound(err):
	case err != nil:
		t.Fatal(err)
	case got.DeletionTimestamp == nil:
		t.Errorf("namespace %s still exists without deletion timestamp after its test ended", ns)
	}
}

// TestKubeconfigPath_ReachesTheCluster proves the file and the YAML describe the same reachable cluster.
func TestKubeconfigPath_ReachesTheCluster(t *testing.T) {
	config, err := clientcmd.BuildConfigFromFlags("", localcluster.KubeconfigPath(t))
	if err != nil {
		t.Fatal(err)
	}
	fromYAML, err := clientcmd.RESTConfigFromKubeConfig([]byte(localcluster.Kubeconfig(t)))
	if err != nil {
		t.Fatal(err)
	}
	if config.Host != fromYAML.Host {
		t.Errorf("kubeconfig file points at %s, Kubeconfig at %s", config.Host, fromYAML.Host)
	}
	clients, err := kubernetes.NewForConfig(config)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := clients.CoreV1().Nodes().Get(context.Background(), localcluster.NodeName, metav1.GetOptions{}); err != nil {
		t.Errorf("node %s through %s: %v", localcluster.NodeName, localcluster.KubeconfigPath(t), err)
	}
}
