package provider

import (
	"fmt"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"helm.sh/helm/v3/pkg/action"
	"helm.sh/helm/v3/pkg/chart/loader"
	"helm.sh/helm/v3/pkg/release"
	"k8s.io/cli-runtime/pkg/genericclioptions"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/testsupport/localcluster"
)

// helmAsPerson is the test namespace's Helm release storage as the helm
// CLI of a person sees it.
func (e *accEnv) helmAsPerson() *action.Configuration {
	e.t.Helper()
	flags := genericclioptions.NewConfigFlags(false)
	kubeconfig, ns := localcluster.KubeconfigPath(e.t), e.namespace
	flags.KubeConfig, flags.Namespace = &kubeconfig, &ns
	cfg := new(action.Configuration)
	if err := cfg.Init(flags, ns, "secret", func(string, ...any) {}); err != nil {
		e.t.Fatal(err)
	}
	return cfg
}

func (e *accEnv) helmReleaseInstallation(release string) string {
	return e.pathInstallation("chart", blueprintDir(e.t, "helm-release"), fmt.Sprintf("release = %q", release))
}

// A release that a person installed under the name the blueprint uses is
// refused with an error naming it, and neither the failed apply nor the
// destroy changes or uninstalls it.
func TestAccInstallation_helmReleaseOfSomeoneElseIsRefused(t *testing.T) {
	e := newAccEnv(t)
	helmCfg := e.helmAsPerson()
	ch, err := loader.Load(blueprintDir(t, "helm-release/chart"))
	if err != nil {
		t.Fatal(err)
	}
	install := action.NewInstall(helmCfg)
	install.ReleaseName, install.Namespace = "taken", e.namespace
	if _, err := install.Run(ch, map[string]any{"owner": "person"}); err != nil {
		t.Fatal(err)
	}
	personsRelease := func(*terraform.State) error {
		rel, err := helmCfg.Releases.Last("taken")
		if err != nil {
			return fmt.Errorf("the person's release: %w", err)
		}
		if rel.Version != 1 || rel.Info.Status != release.StatusDeployed {
			return fmt.Errorf("the person's release was changed: revision %d, %s", rel.Version, rel.Info.Status)
		}
		return e.configMapData("taken", map[string]string{"owner": "person"})(nil)
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviders,
		CheckDestroy:             personsRelease,
		Steps: []resource.TestStep{
			{
				Config:      e.helmReleaseInstallation("taken"),
				ExpectError: regexp.MustCompile(`(?s)release\s+` + e.namespace + `/taken\s+already\s+exists\s+and\s+was\s+not\s+installed`),
			},
			{
				Config: e.helmReleaseInstallation("mine"),
				Check: resource.ComposeAggregateTestCheckFunc(
					personsRelease,
					e.configMapData("mine", map[string]string{"owner": "landscaper"}),
				),
			},
		},
	})
}
