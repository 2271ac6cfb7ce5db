terraform {
  required_providers {
    landscaper = {
      source = "landscaper-terraform/landscaper"
    }
  }
}

# Nothing is required. The kubernetes block names the host cluster from
# which installations read Secret and ConfigMap imports.
provider "landscaper" {
  kubernetes = {
    config_path    = "~/.kube/config"
    config_context = "landscaper-host"
  }
}
