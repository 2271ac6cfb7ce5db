package redact

import (
	"crypto/sha256"
	"strings"

	"sigs.k8s.io/yaml"
)

// kubeconfigWords are kubeconfig keys and fixed values: masking them would
// only make a parser error unreadable.
var kubeconfigWords = map[string]bool{
	"apiVersion": true, "kind": true, "Config": true, "clusters": true, "cluster": true, "users": true,
	"user": true, "contexts": true, "context": true, "current-context": true, "name": true, "server": true,
	"namespace": true, "preferences": true, "extensions": true, "token": true, "username": true,
	"password": true, "client-certificate-data": true, "client-key-data": true,
	"certificate-authority-data": true, "insecure-skip-tls-verify": true, "exec": true,
	"auth-provider": true, "command": true, "args": true, "env": true, "true": true, "false": true,
	"null": true, "https": true, "http": true,
}

// Kubeconfig returns err's message with every word of kubeconfig masked
// except the kubeconfig's own keys: YAML and clientcmd errors quote the
// offending line or map, and that may be a token or a key.
func Kubeconfig(err error, kubeconfig string) string {
	if err == nil {
		return ""
	}
	var s Secrets
	words := strings.FieldsFunc(kubeconfig, func(r rune) bool {
		return strings.ContainsRune(" \t\r\n:\"',{}[]#&*!|>", r)
	})
	for _, w := range words {
		if !kubeconfigWords[w] {
			s.Add(w)
		}
	}
	return s.String(err.Error())
}

// KubeconfigCredentials registers the credentials of a kubeconfig: every
// value under users (tokens, passwords, keys, certificates, exec and
// auth-provider settings). Cluster names and servers stay readable. A
// kubeconfig registered before is not parsed again.
func (s *Secrets) KubeconfigCredentials(kubeconfig string) {
	sum := sha256.Sum256([]byte(kubeconfig))
	s.mu.RLock()
	known := s.kubeconfigs[sum]
	s.mu.RUnlock()
	if known {
		return
	}
	s.learnKubeconfig(kubeconfig)
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.kubeconfigs == nil {
		s.kubeconfigs = map[[sha256.Size]byte]bool{}
	}
	s.kubeconfigs[sum] = true
}

func (s *Secrets) learnKubeconfig(kubeconfig string) {
	var doc struct {
		Users []struct {
			User any `json:"user"`
		} `json:"users"`
	}
	if yaml.Unmarshal([]byte(kubeconfig), &doc) != nil {
		// Not parseable: every word may be a credential.
		for _, w := range strings.Fields(kubeconfig) {
			if !kubeconfigWords[strings.Trim(w, ":\"'")] {
				s.Add(strings.Trim(w, "\"'"))
			}
		}
		return
	}
	for _, u := range doc.Users {
		s.AddValue(u.User)
	}
}
