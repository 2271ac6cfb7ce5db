package template

import "fmt"

// unsupportedFunction is a Landscaper function this provider defines (so
// blueprints mentioning it still parse: text/template rejects unknown
// functions even in branches never taken) but cannot run; calling it is
// an error naming the function.
func unsupportedFunction(name string) lookupFunc {
	return func([]any) (any, error) {
		return nil, fmt.Errorf("%s: needs Gardener's shoot API, which this provider does not offer; "+
			"pass the kubeconfig as an import instead", name)
	}
}
