resource "landscaper_target" "cluster" {
  name       = "cluster"
  kubeconfig = file(var.kubeconfig_path)
}

# A blueprint from a directory: blueprint.yaml and the files its templates
# read (deploy execution templates, Helm charts, schemas).
resource "landscaper_installation" "echo" {
  name      = "echo"
  namespace = "default"
  blueprint = { path = "${path.module}/blueprints/echo-server" }

  imports = {
    targets = { cluster = landscaper_target.cluster.target }
    data = {
      namespace = "echo"
      replicas  = 2
      greeting  = "hello"
    }
    # Read from the provider's host cluster at plan and apply.
    secrets = {
      apiToken = { name = "echo-credentials", namespace = "default", key = "token" }
    }
  }

  # Spiff, as in Landscaper's importDataMappings.
  import_data_mappings = {
    maxSurge = "(( replicas / 2 ))"
  }

  timeouts = {
    create = "15m"
    update = "15m"
    delete = "10m"
  }
}

# Exports feed other installations and any other resource.
resource "landscaper_installation" "client" {
  name      = "client"
  blueprint = { path = "${path.module}/blueprints/client" }
  imports = {
    targets = { cluster = landscaper_target.cluster.target }
    data    = { echoURL = landscaper_installation.echo.exports.url }
  }
}

# A blueprint resource of a component descriptor (a local component archive).
resource "landscaper_installation" "from_component" {
  name                 = "from-component"
  component_descriptor = { path = "${path.module}/components/echo" }
  blueprint            = { ref = { resource_name = "echo-blueprint" } }
  imports = {
    targets = { cluster = landscaper_target.cluster.target }
  }
}

variable "kubeconfig_path" { type = string }

output "echo_url" {
  value = landscaper_installation.echo.exports.url
}
