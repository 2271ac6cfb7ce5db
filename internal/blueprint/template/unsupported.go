package template

import "fmt"

// clusterFunctions are Landscaper template functions that call a cluster
// (Gardener shoots, service account tokens, OIDC) through a target. They
// are defined so that blueprints mentioning them still parse (text/template
// rejects unknown functions even in branches never taken); calling one is
// an error naming the function.
var clusterFunctions = []string{
	"getShootAdminKubeconfig",
	"getShootAdminKubeconfigWithExpirationTimestamp",
	"getServiceAccountKubeconfig",
	"getServiceAccountKubeconfigWithExpirationTimestamp",
	"getOidcKubeconfig",
}

func unsupportedFunction(name string) lookupFunc {
	return func([]any) (any, error) {
		return nil, fmt.Errorf("%s: needs cluster access while rendering, which this provider does not offer; "+
			"pass the kubeconfig as an import instead", name)
	}
}
