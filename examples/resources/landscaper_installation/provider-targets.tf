# Target imports named by the provider block's target_kubeconfigs entry:
# the configuration holds nothing sensitive, so an import of the
# installation (after a lost state, or into another workspace with
# `terraform query -generate-config-out`) plans no change.
provider "landscaper" {
  target_kubeconfigs = { cluster = file("~/.kube/shop.yaml") }
}

resource "landscaper_installation" "shop" {
  name             = "shop"
  namespace        = "landscapes"
  blueprint        = { path = "${path.module}/blueprints/shop" }
  provider_targets = { cluster = "cluster" } # import name = target_kubeconfigs entry
  imports = {
    data = { replicas = 2 }
  }
}
