package preview

import (
	"fmt"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
)

// TestItem_ManyObjectsAsOneAtATime: an item's objects encoded several at
// a time give the texts, keys (duplicates numbered in order) and marks of
// one at a time, and the error of the first object that fails.
func TestItem_ManyObjectsAsOneAtATime(t *testing.T) {
	var objs []deployer.PreviewObject
	for i := 0; i < 40; i++ {
		name := fmt.Sprintf("cm-%d", i%30) // ten names twice: keys " (2)"
		objs = append(objs, deployer.PreviewObject{Note: fmt.Sprint("object ", i), Object: map[string]any{
			"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": name, "namespace": "apps"},
			"data": map[string]any{"i": fmt.Sprint(i), "token": "tok-1234567890"}}})
	}
	objs = append(objs, secretObjects("hunter2-very-secret", "tok-1234567890")...)
	renderAll := func(procs int) (map[string]string, map[string]Mark) {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
		var s Sensitive
		s.Add("tok-1234567890")
		marks := NewMarks(testKey, nil, nil)
		return render(t, NewRenderer(marks, &s), "root/app", objs...), marks.Table()
	}
	one, oneMarks := renderAll(1)
	many, manyMarks := renderAll(4)
	if !reflect.DeepEqual(one, many) || !reflect.DeepEqual(oneMarks, manyMarks) {
		t.Fatalf("several at a time differ from one at a time:\n%v\n%v", one, many)
	}
	if _, ok := many["root/app: v1 ConfigMap apps/cm-3 (2)"]; len(many) != len(objs) || !ok {
		t.Errorf("keys: %v", reflect.ValueOf(many).MapKeys())
	}

	bad := deployer.PreviewObject{Object: map[string]any{"apiVersion": "v1", "kind": "ConfigMap",
		"metadata": map[string]any{"name": "bad"}, "data": map[string]any{"c": make(chan int)}}}
	noRef := deployer.PreviewObject{Object: map[string]any{"data": map[string]any{}}}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	for _, c := range []struct {
		objs []deployer.PreviewObject
		want string
	}{
		{append(append([]deployer.PreviewObject{}, objs...), bad, noRef), "ConfigMap bad"},
		{append(append([]deployer.PreviewObject{}, objs...), noRef, bad), "without apiVersion"},
	} {
		_, err := NewRenderer(nil, nil).Item("root/app", c.objs)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("error %v, want the first failing object's (%q)", err, c.want)
		}
	}
}
