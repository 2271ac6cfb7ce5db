//go:build pindeps

// Package deps pins the chosen dependencies in go.mod while the packages
// that use them are being written, so `go mod tidy` keeps them resolved
// together. Removed once every dependency has a real importer.
package deps

import (
	_ "github.com/Masterminds/sprig/v3"
	_ "github.com/google/uuid"
	_ "github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	_ "github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	_ "github.com/hashicorp/terraform-plugin-framework/providerserver"
	_ "github.com/hashicorp/terraform-plugin-log/tflog"
	_ "github.com/hashicorp/terraform-plugin-testing/helper/resource"
	_ "github.com/mandelsoft/spiff/spiffing"
	_ "github.com/santhosh-tekuri/jsonschema/v6"
	_ "helm.sh/helm/v3/pkg/action"
	_ "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	_ "k8s.io/client-go/dynamic"
	_ "sigs.k8s.io/controller-runtime/pkg/envtest"
	_ "sigs.k8s.io/yaml"
)
