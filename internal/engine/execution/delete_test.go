package execution

import (
	"context"
	"strings"
	"testing"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
)

func TestDelete_ReverseOrder(t *testing.T) {
	// an item is deleted only when nothing that depends on it still exists
	env := newEnv()
	d := map[string]any{"deleteDelay": "5ms"}
	exec, err := Run(env.job(context.Background(), 10), spec(item("a", d), item("b", d, "a"), item("c", d, "a"), item("d", d, "b", "c")), nil)
	if err != nil {
		t.Fatal(err)
	}
	gone, err := Delete(env.job(context.Background(), 10), Spec{Path: "root"}, exec, deployer.DeleteOptions{})
	if err != nil || gone != nil {
		t.Fatalf("delete: %v, remaining %+v", err, gone)
	}
	ev := env.mock.Events()
	assertBefore(t, ev, "delete", "d", "b")
	assertBefore(t, ev, "delete", "d", "c")
	assertBefore(t, ev, "delete", "b", "a")
	assertBefore(t, ev, "delete", "c", "a")
	if n := len(env.mock.Deployed()); n != 0 {
		t.Errorf("%d items left in the cluster", n)
	}
}

func TestDelete_DeleteFailedPropagates(t *testing.T) {
	// a failed deletion stops further deletions; the execution ends DeleteFailed with what remains
	env := newEnv()
	exec, err := Run(env.job(context.Background(), 10), spec(item("a", nil), item("b", map[string]any{"deleteFails": true}, "a"), item("other", nil)), nil)
	if err != nil {
		t.Fatal(err)
	}
	j := env.job(context.Background(), 10)
	left, err := Delete(j, Spec{Path: "root"}, exec, deployer.DeleteOptions{})
	if err == nil || !strings.Contains(err.Error(), "root/b was not deleted") || !strings.Contains(err.Error(), "phase Deleting") {
		t.Fatalf("error %v", err)
	}
	if left == nil || left.Phase != api.ExecutionPhaseDeleteFailed || left.JobIDFinished != j.ID {
		t.Fatalf("remaining %+v", left)
	}
	items := byName(left)
	if items["b"].Phase != api.DeployItemPhaseDeleteFailed || items["a"] == nil || items["other"] != nil {
		t.Errorf("items: b %v, a present %v, other present %v", items["b"].Phase, items["a"] != nil, items["other"] != nil)
	}
	if got := strings.Join(env.mock.Deployed(), ","); got != "root/a,root/b" {
		t.Errorf("cluster %s", got)
	}
}

func TestDelete_TransientErrorsRecover(t *testing.T) {
	// a transient delete error repeats the deletion after a pause
	env := newEnv()
	exec, _ := Run(env.job(context.Background(), 1), spec(item("a", map[string]any{"deleteTransientFailures": 2})), nil)
	if left, err := Delete(env.job(context.Background(), 1), Spec{Path: "root"}, exec, deployer.DeleteOptions{}); err != nil || left != nil {
		t.Fatalf("%v %+v", err, left)
	}
}

func TestDelete_WithoutUninstall(t *testing.T) {
	// delete-without-uninstall reaches the deployer: items are forgotten, not uninstalled
	env := newEnv()
	exec, _ := Run(env.job(context.Background(), 1), spec(item("a", map[string]any{"deleteFails": true})), nil)
	left, err := Delete(env.job(context.Background(), 1), Spec{Path: "root"}, exec, deployer.DeleteOptions{WithoutUninstall: true})
	if err != nil || left != nil {
		t.Fatalf("%v %+v", err, left)
	}
	if got := env.mock.Deployed(); len(got) != 1 {
		t.Errorf("cluster %v: the item must stay installed", got)
	}
}
