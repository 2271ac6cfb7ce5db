# A component version in an OCI registry, as Landscaper installations name
# it: the blueprint is a resource of the component; charts, schemas and
# blobs its templates name (getResourceKey, cd://...) are read from the
# component and the components it references.
provider "landscaper" {
  registry = {
    credentials = [{
      host     = "registry.example.com"
      username = "robot"
      password = var.registry_password
    }]
  }
}

variable "registry_password" {
  type      = string
  sensitive = true
}

resource "landscaper_installation" "echo" {
  name = "echo"

  component_descriptor = {
    ref = {
      repository_context = {
        type     = "ociRegistry"
        base_url = "registry.example.com/landscaper/components"
      }
      component_name = "example.com/echo-server"
      version        = "1.2.0"
    }
  }
  blueprint = { ref = { resource_name = "blueprint" } }

  imports = {
    targets = { cluster = landscaper_target.dev.target }
    data    = { replicas = 2 }
  }
}
