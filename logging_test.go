package main

import (
	"os"
	"testing"
)

func TestQuietUnreadLogs(t *testing.T) {
	cases := []struct {
		name  string
		env   map[string]string
		debug bool
		want  map[string]string // "" means unset
	}{
		{"nobody reads the log", nil, false,
			map[string]string{"TF_LOG_SDK": "OFF", "TF_LOG_SDK_FRAMEWORK": "OFF", "TF_LOG_PROVIDER_LANDSCAPER": "OFF"}},
		{"TF_LOG shows it", map[string]string{"TF_LOG": "INFO"}, false,
			map[string]string{"TF_LOG_SDK": "", "TF_LOG_SDK_FRAMEWORK": "", "TF_LOG_PROVIDER_LANDSCAPER": ""}},
		{"TF_LOG_PROVIDER shows it", map[string]string{"TF_LOG_PROVIDER": "TRACE"}, false,
			map[string]string{"TF_LOG_SDK": "", "TF_LOG_SDK_FRAMEWORK": ""}},
		{"a debug run prints it", nil, true,
			map[string]string{"TF_LOG_SDK": "", "TF_LOG_SDK_FRAMEWORK": ""}},
		{"a level the user set is kept", map[string]string{"TF_LOG_SDK_FRAMEWORK": "DEBUG"}, false,
			map[string]string{"TF_LOG_SDK": "OFF", "TF_LOG_SDK_FRAMEWORK": "DEBUG"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for _, name := range append([]string{"TF_LOG", "TF_LOG_PROVIDER"}, unreadLogLevels...) {
				t.Setenv(name, "") // restored after the test
				_ = os.Unsetenv(name)
			}
			for k, v := range c.env {
				t.Setenv(k, v)
			}
			quietUnreadLogs(c.debug)
			for k, want := range c.want {
				if got := os.Getenv(k); got != want {
					t.Errorf("%s = %q, want %q", k, got, want)
				}
			}
		})
	}
}
