package installation

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/types"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint/component"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/landscaperstate"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/provider/shared"
)

// Migration from a running Landscaper (docs/guides/migrating-from-landscaper.md):
// `terraform import landscaper_installation.x <namespace>/<name>` with the
// provider's kubernetes block pointing at Landscaper's host cluster reads
// the Installation and everything Landscaper made for it
// (internal/landscaperstate) and runs an adoption job: the engine renders
// the Installation manifest exactly as a plan would, and for every deploy
// item the deployer's Adopt (deployer.Adopter) turns what Landscaper's
// deployer recorded into this provider's provider status, reading the
// target clusters and writing nothing. The job's snapshot and outcome
// become the imported state, so the plan of the generated configuration
// is empty and the first apply changes nothing in the target clusters.

// lsInstallations is where Landscaper's Installations are served.
var lsInstallations = schema.GroupVersionResource{Group: "landscaper.gardener.cloud", Version: "v1alpha1", Resource: "installations"}

// migration is what an adoption job leaves: the state to import.
type migration struct {
	model   shared.InstallationModel
	outcome *installationOutcome
	// differing are deploy items whose configuration, as this provider
	// renders it, differs from what Landscaper deployed: marked drifted,
	// so the plan shows their update.
	differing []string
}

// hostDynamic is a dynamic client of the host cluster; nil without one.
func (d *InstallationData) hostDynamic() (dynamic.Interface, error) {
	if d == nil || d.Host == nil || !d.Host.Settings.Configured {
		return nil, nil
	}
	return d.Host.DynamicClient()
}

// landscaperInstallation reports whether the host cluster holds a
// Landscaper Installation namespace/name (false also when the cluster
// serves no Installations at all). forbidden says the host's credentials
// may not read Installations: then nobody can tell.
func landscaperInstallation(ctx context.Context, client dynamic.Interface, namespace, name string) (exists, forbidden bool, err error) {
	_, err = client.Resource(lsInstallations).Namespace(namespace).Get(ctx, name, metav1.GetOptions{})
	switch {
	case err == nil:
		return true, false, nil
	case apierrors.IsNotFound(err) || meta.IsNoMatchError(err):
		return false, false, nil
	case apierrors.IsForbidden(err):
		return false, true, nil
	}
	return false, false, fmt.Errorf("reading Installation %s/%s from the host cluster: %w", namespace, name, err)
}

// migrate reads the Landscaper Installation that base (the imported
// state, only its ID, name and namespace set) names and adopts it
// (instance.Runner.Adopt).
func (d *InstallationData) migrate(ctx context.Context, client dynamic.Interface, base shared.InstallationModel) (*migration, error) {
	namespace, name := base.Namespace.ValueString(), base.Name.ValueString()
	landscape, err := landscaperstate.Read(ctx, client, namespace, name)
	if err != nil {
		return nil, fmt.Errorf("reading Landscaper's Installation %s/%s: %w", namespace, name, err)
	}
	if err := landscape.Settled(); err != nil {
		// What an unfinished landscape records may not be what is deployed.
		return nil, fmt.Errorf("the Landscaper Installation %s/%s is not finished; only an installation Landscaper installed "+
			"successfully can be imported (let it reconcile, then import again): %w", namespace, name, err)
	}
	// The configuration is the Installation manifest alone: its
	// DataObjects and Targets stay on the host cluster and are read from
	// there (withHostObjects), so it holds no credentials.
	m := base
	m.Manifest = types.StringValue(landscape.Manifest)
	m.DeleteWithoutUninstall = types.BoolValue(false)
	spec, err := shared.RootSpec(ctx, d.Inputs(component.Pins{}), m)
	if err != nil {
		return nil, err
	}
	adopted, err := d.Instances(ctx).Adopt(ctx, spec, landscape)
	if err != nil {
		return nil, fmt.Errorf("adopting Landscaper's Installation %s/%s (nothing was changed in any cluster): %w", namespace, name, err)
	}
	out, err := outcomeOf(adopted.Snapshot, nil)
	if err != nil {
		return nil, err
	}
	if err := out.renderedFrom(spec); err != nil {
		return nil, err
	}
	for i, row := range out.items {
		for _, id := range adopted.Differing {
			if row.Installation+"/"+row.Name == id {
				out.items[i].Phase = driftedPhase
			}
		}
	}
	scrubOutcome(d.Security, out)
	return &migration{model: m, outcome: out, differing: adopted.Differing}, nil
}
