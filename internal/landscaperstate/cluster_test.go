package landscaperstate_test

import (
	"context"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/landscaperstate"
	fixture "github.com/landscaper-terraform/terraform-provider-landscaper/internal/testsupport/landscaperfixture"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/testsupport/localcluster"
)

func TestMain(m *testing.M) { localcluster.Main(m) }

// readInstalled installs the fixture's landscape (opts with fresh host
// and target namespaces) in the local cluster and reads it back.
func readInstalled(t *testing.T, opts fixture.Options) (*fixture.Landscape, dynamic.Interface, *landscaperstate.Landscape) {
	t.Helper()
	cfg := localcluster.RESTConfig(t)
	opts.Namespace, opts.TargetNamespace, opts.Kubeconfig = localcluster.Namespace(t), localcluster.Namespace(t), localcluster.Kubeconfig(t)
	installed := fixture.Install(t, cfg, opts)
	client, err := dynamic.NewForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	land, err := landscaperstate.Read(context.Background(), client, opts.Namespace, fixture.RootName)
	if err != nil {
		t.Fatalf("Read: %v", err)
	}
	return installed, client, land
}

// TestRead_FromCluster: the fixture's landscape, created in a real API
// server, reads back with every deploy item pointing at objects that
// exist, carry the item's label, and have the UIDs the deployer recorded.
func TestRead_FromCluster(t *testing.T) {
	installed, client, land := readInstalled(t, fixture.Options{})
	ctx := context.Background()

	var items []*landscaperstate.DeployItem
	land.Root.Walk(func(inst *landscaperstate.Installation) {
		if inst.Phase != "Succeeded" || inst.JobID != inst.JobIDFinished {
			t.Errorf("%s: phase %s, job %s/%s", inst.ObjectRef, inst.Phase, inst.JobID, inst.JobIDFinished)
		}
		items = append(items, inst.Execution.DeployItems...)
	})
	if len(items) != 3 {
		t.Fatalf("%d deploy items, want 3", len(items))
	}
	for _, item := range items {
		for _, r := range item.Resources {
			gv, err := schema.ParseGroupVersion(r.APIVersion)
			if err != nil {
				t.Fatal(err)
			}
			res := map[string]string{"ConfigMap": "configmaps", "Deployment": "deployments"}[r.Kind]
			obj, err := client.Resource(gv.WithResource(res)).Namespace(r.Namespace).Get(ctx, r.Name, metav1.GetOptions{})
			if err != nil {
				t.Errorf("%s: resource %s %s: %v", item.Name, r.Kind, r.Name, err)
				continue
			}
			if r.UID != "" && string(obj.GetUID()) != r.UID {
				t.Errorf("%s: %s %s has UID %s, the deployer recorded %s", item.Name, r.Kind, r.Name, obj.GetUID(), r.UID)
			}
			if item.OwnerLabel.Key != "" && obj.GetLabels()[item.OwnerLabel.Key] != item.OwnerLabel.Value {
				t.Errorf("%s: %s %s labels %v, want %s=%s", item.Name, r.Kind, r.Name, obj.GetLabels(), item.OwnerLabel.Key, item.OwnerLabel.Value)
			}
		}
		if item.Type == landscaperstate.ManifestType && (len(item.Resources) == 0 || item.Resources[0].UID == "") {
			t.Errorf("%s: no recorded UIDs: %+v", item.Name, item.Resources)
		}
		if item.Target == nil || len(item.Target.Spec.Config) == 0 {
			t.Errorf("%s: target not resolved", item.Name)
		}
	}

	// The Helm release is where the item says, recorded as Helm records it.
	cache := items[2]
	if cache.Helm == nil {
		t.Fatal("cache: no Helm release")
	}
	secrets, err := client.Resource(schema.GroupVersionResource{Version: "v1", Resource: "secrets"}).Namespace(cache.Helm.Namespace).
		List(ctx, metav1.ListOptions{LabelSelector: "owner=helm,name=" + cache.Helm.Name})
	if err != nil || len(secrets.Items) != 1 {
		t.Errorf("Helm release records of %s: %v, %v", cache.Helm.Name, err, secrets)
	}

	// Owner references carry the owners' UIDs, as the garbage collector needs.
	uids := map[string]string{}
	for _, o := range installed.Host {
		uids[o.GetKind()+"/"+o.GetName()] = string(o.GetUID())
	}
	for _, o := range installed.Host {
		for _, ref := range o.GetOwnerReferences() {
			if want := uids[ref.Kind+"/"+ref.Name]; want == "" || string(ref.UID) != want {
				t.Errorf("%s %s: owner %s %s with UID %s, the owner has %q", o.GetKind(), o.GetName(), ref.Kind, ref.Name, ref.UID, want)
			}
		}
	}

	// Every object Landscaper made is accounted for; the user's objects are not.
	listed := map[string]bool{}
	for _, o := range land.Objects {
		listed[o.Kind+"/"+o.Name] = true
		if o.UID == "" && o.Kind != "Secret" {
			t.Errorf("%s without UID", o)
		}
	}
	for _, o := range installed.Host {
		mine := listed[o.GetKind()+"/"+o.GetName()]
		user := o.GetName() == fixture.TargetName || o.GetName() == fixture.NamespaceDataObject ||
			o.GetName() == fixture.SettingsDataObject || o.GetKind() == "Context"
		if mine == user {
			t.Errorf("%s %s: listed %v, made by the user %v", o.GetKind(), o.GetName(), mine, user)
		}
	}
}
