// Package hostaccess is how installations read outside the
// configuration, without Terraform: Secrets, ConfigMaps and Landscaper
// Contexts of the provider's host cluster, component versions and charts
// from registries (with a Context's pull secrets), and a blueprint's
// digest.
package hostaccess

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/target"
)

// HostSettings is the provider's kubernetes block as plain Go values.
type HostSettings = target.HostSettings

// HostCluster reads Secret and ConfigMap imports. The client is built on
// first use, so plans and configurations without such imports never need it.
type HostCluster struct {
	Settings HostSettings
	once     sync.Once
	client   kubernetes.Interface
	err      error
	// dyn is the dynamic client Landscaper's own kinds are read with.
	dynOnce sync.Once
	dyn     dynamic.Interface
	dynErr  error
}

func (h *HostCluster) clientset() (kubernetes.Interface, error) {
	h.once.Do(func() {
		cfg, err := h.Settings.RESTConfig()
		if err != nil {
			h.err = err
			return
		}
		h.client, h.err = kubernetes.NewForConfig(cfg)
	})
	return h.client, h.err
}

// DynamicClient is a dynamic client of the host cluster, built on first
// use like clientset.
func (h *HostCluster) DynamicClient() (dynamic.Interface, error) {
	h.dynOnce.Do(func() {
		cfg, err := h.Settings.RESTConfig()
		if err != nil {
			h.dynErr = err
			return
		}
		h.dyn, h.dynErr = dynamic.NewForConfig(cfg)
	})
	return h.dyn, h.dynErr
}

// ObjectRef names a Secret or ConfigMap and optionally one of its keys.
type ObjectRef struct {
	Name, Namespace, Key string
}

func (r ObjectRef) String() string { return r.Namespace + "/" + r.Name }

// ReadSecret returns the value of key, or all keys as a map when key is empty.
func (h *HostCluster) ReadSecret(ctx context.Context, ref ObjectRef) (any, error) {
	c, err := h.clientset()
	if err != nil {
		return nil, err
	}
	s, err := c.CoreV1().Secrets(ref.Namespace).Get(ctx, ref.Name, metav1.GetOptions{})
	if err != nil {
		return nil, fmt.Errorf("reading Secret %s: %w", ref, err)
	}
	data := map[string]string{}
	for k, v := range s.Data {
		data[k] = string(v)
	}
	for k, v := range s.StringData {
		data[k] = v
	}
	return pickKey("Secret", ref, data)
}

// ReadConfigMap returns the value of key, or all keys as a map when key is empty.
func (h *HostCluster) ReadConfigMap(ctx context.Context, ref ObjectRef) (any, error) {
	c, err := h.clientset()
	if err != nil {
		return nil, err
	}
	cm, err := c.CoreV1().ConfigMaps(ref.Namespace).Get(ctx, ref.Name, metav1.GetOptions{})
	if err != nil {
		return nil, fmt.Errorf("reading ConfigMap %s: %w", ref, err)
	}
	data := map[string]string{}
	for k, v := range cm.Data {
		data[k] = v
	}
	for k, v := range cm.BinaryData {
		data[k] = string(v)
	}
	return pickKey("ConfigMap", ref, data)
}

// pickKey decodes the selected value as JSON or YAML when it parses
// (Landscaper stores structured import values that way) and keeps it as a
// string otherwise.
func pickKey(kind string, ref ObjectRef, data map[string]string) (any, error) {
	if ref.Key == "" {
		out := make(map[string]any, len(data))
		for k, v := range data {
			out[k] = v
		}
		return out, nil
	}
	v, ok := data[ref.Key]
	if !ok {
		keys := make([]string, 0, len(data))
		for k := range data {
			keys = append(keys, k)
		}
		return nil, fmt.Errorf("%s %s has no key %q (keys: %s)", kind, ref, ref.Key, strings.Join(keys, ", "))
	}
	return decodeStructured(v), nil
}

// decodeStructured returns v decoded when it is a JSON document, else v.
func decodeStructured(v string) any {
	var out any
	if err := json.Unmarshal([]byte(v), &out); err == nil {
		return out
	}
	return v
}
