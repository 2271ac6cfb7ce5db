//go:build tools

// Package opentofu pins the OpenTofu CLI version.
package opentofu

import _ "github.com/opentofu/opentofu/cmd/tofu"
