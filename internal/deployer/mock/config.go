package mock

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/failure"
)

// Type is the deploy item type the mock deployer serves.
const Type = deployer.MockType

// Config is the mock deploy item configuration. Landscaper's fields come
// first; the rest script time and errors for tests.
type Config struct {
	// Phase is how every Apply ends: Succeeded (default) or Failed.
	Phase api.DeployItemPhase `json:"phase,omitempty"`
	// InitialPhase, when set, is how the first Apply of an item (one with
	// no provider status yet) ends instead of Phase.
	InitialPhase api.DeployItemPhase `json:"initialPhase,omitempty"`
	// ProviderStatus is returned as the item's provider status.
	ProviderStatus json.RawMessage `json:"providerStatus,omitempty"`
	// Export is the item's exports (an object).
	Export map[string]any `json:"export,omitempty"`

	// Delay is how long Apply waits for "readiness" after creating the
	// item, e.g. "50ms"; a cancelled context ends the wait with an error.
	Delay string `json:"delay,omitempty"`
	// TransientFailures is how many Apply calls of this item fail with a
	// transient error before it succeeds.
	TransientFailures int `json:"transientFailures,omitempty"`
	// DeleteDelay is how long Delete takes.
	DeleteDelay string `json:"deleteDelay,omitempty"`
	// DeleteTransientFailures is how many Delete calls fail transiently.
	DeleteTransientFailures int `json:"deleteTransientFailures,omitempty"`
	// DeleteFails makes every Delete fail terminally (DeleteFailed).
	DeleteFails bool `json:"deleteFails,omitempty"`
}

type parsed struct {
	Config
	delay, deleteDelay time.Duration
}

func parse(raw json.RawMessage) (parsed, error) {
	var p parsed
	if len(raw) > 0 {
		if err := api.DecodeExact(raw, &p.Config, api.AllowTrailing); err != nil {
			return p, failure.NewTerminal("InvalidConfig", fmt.Errorf("invalid mock config: %w", err))
		}
		// As the manifest deployer's exports (read from the API server's
		// objects) have them; the engine's tests rely on the mock
		// exporting what a real deployer would.
		api.MapNumbers(p.Export, api.ExactNumber)
	}
	for _, ph := range []api.DeployItemPhase{p.Phase, p.InitialPhase} {
		switch ph {
		case "", api.DeployItemPhaseSucceeded, api.DeployItemPhaseFailed:
		default:
			return p, failure.Terminalf("InvalidConfig", "invalid mock config: phase %q is not Succeeded or Failed", ph)
		}
	}
	var err error
	if p.delay, err = parseDelay("delay", p.Delay); err != nil {
		return p, err
	}
	p.deleteDelay, err = parseDelay("deleteDelay", p.DeleteDelay)
	return p, err
}

func parseDelay(field, s string) (time.Duration, error) {
	if s == "" {
		return 0, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil || d < 0 {
		return 0, failure.Terminalf("InvalidConfig", "invalid mock config: %s %q is not a duration", field, s)
	}
	return d, nil
}
