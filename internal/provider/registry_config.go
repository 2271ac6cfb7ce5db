package provider

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint/component"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint/component/ocireg"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/provider/shared"
)

// registryModel is the provider's `registry` block: where component
// versions, blueprints and charts in OCI registries are read from.
type registryModel struct {
	CacheDir               types.String              `tfsdk:"cache_dir"`
	Credentials            []registryCredentialModel `tfsdk:"credentials"`
	AllowUnverifiedDigests types.Bool                `tfsdk:"allow_unverified_digests"`
}

type registryCredentialModel struct {
	Host          types.String `tfsdk:"host"`
	Username      types.String `tfsdk:"username"`
	Password      types.String `tfsdk:"password"`
	IdentityToken types.String `tfsdk:"identity_token"`
	DockerConfig  types.String `tfsdk:"docker_config"`
}

func registrySchema() schema.SingleNestedAttribute {
	return schema.SingleNestedAttribute{Optional: true,
		MarkdownDescription: "Access to OCI registries holding component versions (`component_descriptor.ref`), and the " +
			"blueprints, Helm charts and blobs their resources point at. Registries on loopback are spoken to over plain HTTP, " +
			"all others over HTTPS.",
		Attributes: map[string]schema.Attribute{
			"cache_dir": schema.StringAttribute{Optional: true,
				MarkdownDescription: "Directory of the content-addressed cache of manifests and blobs. Defaults to " +
					"`terraform-provider-landscaper/oci` in the user's cache directory (`$XDG_CACHE_HOME`, `~/.cache`). " +
					"A component version once read is read from here; only its tag is asked from the registry again, " +
					"and when the registry cannot be reached, the tag's last known digest is used with a warning."},
			"allow_unverified_digests": schema.BoolAttribute{Optional: true,
				MarkdownDescription: "Load a component reference whose pinned `digest` cannot be verified, with a warning, " +
					"instead of failing. Only SHA-256 digests in `jsonNormalisation/v1` of schema v2 descriptors are computed; " +
					"a digest of another hash or normalisation (OCM's `jsonNormalisation/v2`, `/v3`), or one pinning a " +
					"descriptor that normalisation does not cover (v3alpha1, a resource without digest), fails the plan " +
					"naming the component, its version and the reference. The same holds for a resource's `digest`: only SHA-256 " +
					"in `genericBlobDigest/v1`, or `ociArtifactDigest/v1` of a resource read as an OCI artifact, is computed " +
					"(OCM's `EXCLUDE-FROM-SIGNATURE` declares none); any other fails reading the resource, naming it. A digest " +
					"that is computed and differs always fails. Defaults to `false`."},
			"credentials": schema.ListNestedAttribute{Optional: true,
				MarkdownDescription: "Credentials by registry host. Hosts not listed are accessed anonymously.",
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"host": schema.StringAttribute{Required: true,
						MarkdownDescription: "Registry host as in image references, e.g. `ghcr.io` or `registry.example.com:5000`."},
					"username": schema.StringAttribute{Optional: true, MarkdownDescription: "User name (with `password`)."},
					"password": schema.StringAttribute{Optional: true, Sensitive: true, MarkdownDescription: "Password or access token."},
					"identity_token": schema.StringAttribute{Optional: true, Sensitive: true,
						MarkdownDescription: "An OAuth2 refresh token (Docker's `identitytoken`)."},
					"docker_config": schema.StringAttribute{Optional: true,
						MarkdownDescription: "Path of a Docker `config.json` whose `auths` entry for the host is used. " +
							"Credential helpers it names are not run."},
				}},
			},
		},
	}
}

// newRegistry builds the component registry of one provider instance.
// Errors point at the attribute to fix and never quote a credential.
func newRegistry(m *registryModel) (*component.Registry, error) {
	opts := ocireg.Options{}
	var hosts []ocireg.HostCredential
	allowUnverified := false
	if m != nil {
		allowUnverified = m.AllowUnverifiedDigests.ValueBool()
		opts.CacheDir = expandHome(m.CacheDir.ValueString())
		for _, c := range m.Credentials {
			hosts = append(hosts, ocireg.HostCredential{Host: c.Host.ValueString(), Username: c.Username.ValueString(),
				Password: c.Password.ValueString(), IdentityToken: c.IdentityToken.ValueString(),
				DockerConfig: expandHome(c.DockerConfig.ValueString())})
		}
	}
	if opts.CacheDir == "" {
		if dir, err := os.UserCacheDir(); err == nil {
			opts.CacheDir = filepath.Join(dir, "terraform-provider-landscaper", "oci")
		}
	}
	cred, err := ocireg.Credentials(hosts)
	if err != nil {
		return nil, shared.AttrErr(path.Root("registry").AtName("credentials"), err)
	}
	opts.Credential = cred
	return &component.Registry{Client: ocireg.New(opts), AllowUnverifiedDigests: allowUnverified}, nil
}

// expandHome resolves a leading "~/" to the user's home directory, as
// paths in provider blocks are usually written.
func expandHome(p string) string {
	rest, ok := strings.CutPrefix(p, "~/")
	if !ok {
		return p
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return p
	}
	return filepath.Join(home, rest)
}
