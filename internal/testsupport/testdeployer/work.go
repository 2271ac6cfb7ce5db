package testdeployer

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"slices"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/tools/clientcmd"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer/external"
)

// StatusAPIVersion is the apiVersion of this deployer's providerStatus.
const StatusAPIVersion = "testdeployer.landscaper-terraform.io/v1alpha1"

// ItemLabel marks what this deployer deployed with its DeployItem's name.
const ItemLabel = "testdeployer.landscaper-terraform.io/deployitem"

var (
	configMaps = schema.GroupVersionResource{Version: "v1", Resource: "configmaps"}
	secrets    = schema.GroupVersionResource{Version: "v1", Resource: "secrets"}
)

// install deploys the item's ConfigMap and exports.
func (c *Controller) install(ctx context.Context, res dynamic.ResourceInterface, di *unstructured.Unstructured, cfg Config, jobID string, poke <-chan struct{}) verdict {
	if !slices.Contains(di.GetFinalizers(), external.Finalizer) {
		di.SetFinalizers(append(di.GetFinalizers(), external.Finalizer))
		updated, err := res.Update(ctx, di, metav1.UpdateOptions{FieldManager: "testdeployer"})
		if err != nil {
			return failed(false, "AddFinalizer", err.Error())
		}
		di = updated
	}
	lsContext, err := c.s.Client.Resource(external.Contexts).Namespace(di.GetNamespace()).Get(ctx, contextName(di), metav1.GetOptions{})
	if err != nil {
		return failed(false, "GetLandscaperContext", err.Error())
	}
	if _, err := setPhase(ctx, res, di, phaseProgressing); err != nil {
		return failed(false, "SetPhase", err.Error())
	}
	if !c.slow(ctx, di.GetName(), jobID, cfg, poke) {
		return failed(false, ReasonAborted, "the job was aborted")
	}
	if cfg.Mode == ModeFail {
		return failed(false, "TestFailure", cfg.FailMessage, cfg.FailCodes...)
	}
	v := verdict{phase: phaseSucceeded, providerStatus: map[string]any{"apiVersion": StatusAPIVersion, "kind": "ProviderStatus"}}
	if cfg.ConfigMap != nil {
		target, err := c.targetClient(ctx, di)
		if err != nil {
			return failed(false, "Target", err.Error())
		}
		if err := applyConfigMap(ctx, target, di.GetName(), *cfg.ConfigMap); err != nil {
			return failed(false, "ApplyConfigMap", err.Error())
		}
		v.providerStatus["configMap"] = map[string]any{"name": cfg.ConfigMap.Name, "namespace": cfg.ConfigMap.Namespace}
	}
	exports := cfg.Exports
	if cfg.ExportContext != "" {
		exports = map[string]any{"context": lsContext.Object[cfg.ExportContext]}
		for k, v := range cfg.Exports {
			exports[k] = v
		}
	}
	if exports != nil {
		ref, err := c.writeExports(ctx, di, exports)
		if err != nil {
			return failed(false, "Exports", err.Error())
		}
		v.exportRef = ref
	}
	if cfg.ExportRef != nil {
		v.exportRef = cfg.ExportRef
	}
	return v
}

// uninstall removes what the item deployed and then its finalizer.
func (c *Controller) uninstall(ctx context.Context, res dynamic.ResourceInterface, di *unstructured.Unstructured, cfg Config, jobID string, poke <-chan struct{}) verdict {
	var err error
	if di, err = setPhase(ctx, res, di, phaseDeleting); err != nil {
		return failed(true, "SetPhase", err.Error())
	}
	slowCfg := cfg
	if cfg.DelayInstallOnly {
		slowCfg.Delay = ""
	}
	if !c.slow(ctx, di.GetName(), jobID, slowCfg, poke) {
		return failed(true, ReasonAborted, "the deletion was aborted")
	}
	if cfg.FailDelete {
		return failed(true, "TestFailure", "deletion fails on purpose", cfg.FailCodes...)
	}
	// What the status records, and what the config names and carries this
	// item's label (a job whose result was dropped recorded nothing).
	var refs []ConfigMapSpec
	name, _, _ := unstructured.NestedString(di.Object, "status", "providerStatus", "configMap", "name")
	ns, _, _ := unstructured.NestedString(di.Object, "status", "providerStatus", "configMap", "namespace")
	if name != "" {
		refs = append(refs, ConfigMapSpec{Name: name, Namespace: ns})
	}
	if cfg.ConfigMap != nil {
		refs = append(refs, *cfg.ConfigMap)
	}
	if len(refs) > 0 {
		target, err := c.targetClient(ctx, di)
		if err != nil {
			return failed(true, "Target", err.Error())
		}
		for _, ref := range refs {
			if err := deleteConfigMap(ctx, target, di.GetName(), ref); err != nil {
				return failed(true, "DeleteConfigMap", err.Error())
			}
		}
	}
	for attempt := 0; attempt < 10; attempt++ {
		fresh, err := res.Get(ctx, di.GetName(), metav1.GetOptions{})
		if apierrors.IsNotFound(err) {
			return verdict{gone: true}
		} else if err != nil {
			return failed(true, "RemoveFinalizer", err.Error())
		}
		fresh.SetFinalizers(slices.DeleteFunc(fresh.GetFinalizers(), func(f string) bool { return f == external.Finalizer }))
		_, err = res.Update(ctx, fresh, metav1.UpdateOptions{FieldManager: "testdeployer"})
		if err == nil || apierrors.IsNotFound(err) {
			return verdict{gone: true}
		} else if !apierrors.IsConflict(err) {
			return failed(true, "RemoveFinalizer", err.Error())
		}
	}
	return failed(true, "RemoveFinalizer", "too many conflicts")
}

func contextName(di *unstructured.Unstructured) string {
	if name, _, _ := unstructured.NestedString(di.Object, "spec", "context"); name != "" {
		return name
	}
	return "default"
}

// targetClient reads the item's Target (in the item's namespace) and
// returns a client for its cluster: the kubeconfig is the Target's
// config.kubeconfig, or the key of the Secret its secretRef names (the
// default key "kubeconfig"), as Landscaper resolves it.
func (c *Controller) targetClient(ctx context.Context, di *unstructured.Unstructured) (dynamic.Interface, error) {
	name, _, _ := unstructured.NestedString(di.Object, "spec", "target", "name")
	if name == "" {
		return nil, fmt.Errorf("the item names no target")
	}
	target, err := c.s.Client.Resource(external.Targets).Namespace(di.GetNamespace()).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return nil, err
	}
	kubeconfig, _, _ := unstructured.NestedString(target.Object, "spec", "config", "kubeconfig")
	if secret, _, _ := unstructured.NestedString(target.Object, "spec", "secretRef", "name"); secret != "" {
		key, _, _ := unstructured.NestedString(target.Object, "spec", "secretRef", "key")
		if key == "" {
			key = external.KubeconfigKey
		}
		s, err := c.s.Client.Resource(secrets).Namespace(di.GetNamespace()).Get(ctx, secret, metav1.GetOptions{})
		if err != nil {
			return nil, fmt.Errorf("target %s: %w", name, err)
		}
		encoded, _, _ := unstructured.NestedString(s.Object, "data", key)
		raw, err := base64.StdEncoding.DecodeString(encoded)
		if err != nil || len(raw) == 0 {
			return nil, fmt.Errorf("target %s: Secret %s has no key %s", name, secret, key)
		}
		kubeconfig = string(raw)
	}
	config, err := clientcmd.RESTConfigFromKubeConfig([]byte(kubeconfig))
	if err != nil {
		return nil, fmt.Errorf("target %s: %w", name, err)
	}
	return dynamic.NewForConfig(config)
}

// deleteConfigMap deletes the ConfigMap ref if it is item's.
func deleteConfigMap(ctx context.Context, target dynamic.Interface, item string, ref ConfigMapSpec) error {
	res := target.Resource(configMaps).Namespace(ref.Namespace)
	live, err := res.Get(ctx, ref.Name, metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		return nil
	} else if err != nil {
		return err
	}
	if live.GetLabels()[ItemLabel] != item {
		return nil
	}
	uid := live.GetUID()
	err = res.Delete(ctx, ref.Name, metav1.DeleteOptions{Preconditions: &metav1.Preconditions{UID: &uid}})
	if apierrors.IsNotFound(err) {
		return nil
	}
	return err
}

func applyConfigMap(ctx context.Context, target dynamic.Interface, item string, spec ConfigMapSpec) error {
	data := map[string]any{}
	for k, v := range spec.Data {
		data[k] = v
	}
	cm := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "v1", "kind": "ConfigMap",
		"metadata": map[string]any{"name": spec.Name, "namespace": spec.Namespace, "labels": map[string]any{ItemLabel: item}},
		"data":     data,
	}}
	_, err := target.Resource(configMaps).Namespace(spec.Namespace).Apply(ctx, spec.Name, cm, metav1.ApplyOptions{FieldManager: "testdeployer", Force: true})
	return err
}

// writeExports writes the export Secret, owned by the DeployItem, as
// Landscaper's library does, and returns the reference to it.
func (c *Controller) writeExports(ctx context.Context, di *unstructured.Unstructured, exports map[string]any) (map[string]any, error) {
	b, err := json.Marshal(exports)
	if err != nil {
		return nil, err
	}
	name := di.GetName() + "-export"
	secret := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "v1", "kind": "Secret",
		"metadata": map[string]any{"name": name, "namespace": di.GetNamespace(), "ownerReferences": []any{map[string]any{
			"apiVersion": di.GetAPIVersion(), "kind": di.GetKind(), "name": di.GetName(), "uid": string(di.GetUID()),
		}}},
		"data": map[string]any{external.ExportKey: base64.StdEncoding.EncodeToString(b)},
	}}
	_, err = c.s.Client.Resource(secrets).Namespace(di.GetNamespace()).Apply(ctx, name, secret, metav1.ApplyOptions{FieldManager: "testdeployer", Force: true})
	if err != nil {
		return nil, err
	}
	return map[string]any{"name": name, "namespace": di.GetNamespace()}, nil
}
