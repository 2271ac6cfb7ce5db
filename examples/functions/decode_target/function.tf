# Terraform >= 1.8 or OpenTofu >= 1.7.
#
# decode_target opens a Target object JSON: a landscaper_target's `target`
# or a target an installation exports. Here an installation creates a
# cluster and exports its target; the kubernetes provider then uses the
# exported kubeconfig. The result is sensitive when the argument is.
locals {
  shoot = provider::landscaper::decode_target(landscaper_installation.shoot.target_exports["shootCluster"])
}

provider "kubernetes" {
  alias                  = "shoot"
  host                   = yamldecode(local.shoot.kubeconfig).clusters[0].cluster.server
  cluster_ca_certificate = base64decode(yamldecode(local.shoot.kubeconfig).clusters[0].cluster["certificate-authority-data"])
  token                  = yamldecode(local.shoot.kubeconfig).users[0].user.token
}

# Any other target type: `config` is the decoded spec.config, any shape.
output "vault_address" {
  value = nonsensitive(provider::landscaper::decode_target(landscaper_target.vault.target).config.address)
}
