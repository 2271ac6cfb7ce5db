package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/resource"
)

// targetSchemaVersion is the version of landscaper_target's schema. Bump it
// with every incompatible change and add the upgrader from the previous
// version to UpgradeState.
const targetSchemaVersion = 0

// UpgradeState holds one upgrader per earlier schema version; version 0 is
// the first release, so there is nothing to upgrade from yet.
func (r *targetResource) UpgradeState(context.Context) map[int64]resource.StateUpgrader {
	return map[int64]resource.StateUpgrader{}
}

// UpgradeState of landscaper_installation: version 0 is the first release.
// The engine snapshot in private state is versioned separately (package
// snapshot migrates it on load).
func (r *installationResource) UpgradeState(context.Context) map[int64]resource.StateUpgrader {
	return map[int64]resource.StateUpgrader{}
}
