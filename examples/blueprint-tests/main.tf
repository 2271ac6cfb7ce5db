# The module under test: renders the blueprint in ./blueprint for the given
# imports with landscaper_rendered_installation and reads its declarations
# with landscaper_blueprint. Neither needs a cluster, so `tofu test` (or
# `terraform test`, Terraform >= 1.6) runs the tests in ./tests offline.

terraform {
  required_providers {
    landscaper = {
      source = "landscaper-terraform/landscaper"
    }
  }
}

provider "landscaper" {}

variable "namespace" {
  type    = string
  default = "web"
}

# null leaves the import out, so the blueprint's default applies.
variable "replicas" {
  type    = number
  default = null
}

variable "expose" {
  type    = bool
  default = null
}

locals {
  # Rendering never contacts the target's cluster: any kubeconfig will do.
  target = file("${path.module}/target.json")
  imports = { for k, v in {
    namespace = var.namespace
    replicas  = var.replicas
    expose    = var.expose
  } : k => v if v != null }
}

data "landscaper_blueprint" "web" {
  blueprint = { path = "${path.module}/blueprint" }
}

data "landscaper_rendered_installation" "web" {
  name      = "web"
  blueprint = { path = "${path.module}/blueprint" }
  imports = {
    targets = { cluster = local.target }
    data    = local.imports
  }
}

output "deploy_items" {
  description = "Rendered deploy items by name."
  value = { for item in data.landscaper_rendered_installation.web.deploy_items : item.name => {
    type       = item.type
    target     = item.target
    depends_on = item.depends_on
  } }
}

output "manifests" {
  description = "The Kubernetes objects each manifest deploy item applies, by item name."
  sensitive   = true
  value = { for item in data.landscaper_rendered_installation.web.deploy_items :
  item.name => [for m in jsondecode(item.config).manifests : m.manifest] }
}

output "exports" {
  description = "The blueprint's declared exports: name => type."
  value       = { for e in data.landscaper_blueprint.web.exports : e.name => e.type }
}
