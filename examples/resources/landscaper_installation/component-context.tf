# The same installation as Landscaper would run it with `spec.context`:
# the Context "landscape" in namespace "apps" of the host cluster names
# the repository context and a registry pull secret.
provider "landscaper" {
  kubernetes = { config_path = "~/.kube/config" } # the host cluster holding the Context
}

resource "landscaper_installation" "echo" {
  name      = "echo"
  namespace = "apps"
  context   = "landscape"

  component_descriptor = {
    ref = {
      component_name = "example.com/echo-server" # no repository_context: the Context's is used
      version        = "1.2.0"
    }
  }
  blueprint = { ref = { resource_name = "blueprint" } }

  imports = {
    targets = { cluster = landscaper_target.dev.target }
    data    = { replicas = 2 }
  }
}
