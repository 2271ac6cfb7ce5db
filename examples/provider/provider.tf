terraform {
  required_providers {
    landscaper = {
      source = "landscaper-terraform/landscaper"
    }
  }
}

# Nothing is required. The kubernetes block names the host cluster from
# which installations read Secret and ConfigMap imports; the registry block
# the credentials of OCI registries holding component versions.
provider "landscaper" {
  kubernetes = {
    config_path    = "~/.kube/config"
    config_context = "landscaper-host"
  }
  registry = {
    credentials = [{ host = "ghcr.io", docker_config = "~/.docker/config.json" }]
  }
}
