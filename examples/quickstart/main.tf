# Quickstart: two installations on the local cluster.
#
# "echo" installs a blueprint with three deploy items that depend on each
# other: a Namespace and a ConfigMap (kubernetes-manifest) and a Helm chart
# shipped next to the blueprint. It exports the URL of the echo Service.
# "client" imports that URL and deploys a ConfigMap that points at it.

terraform {
  required_providers {
    landscaper = {
      source = "landscaper-terraform/landscaper"
    }
  }
}

provider "landscaper" {}

variable "kubeconfig_path" {
  type        = string
  description = "Kubeconfig of the cluster to deploy to."
}

variable "namespace" {
  type        = string
  default     = "quickstart"
  description = "Namespace the quickstart creates and deploys into; destroy deletes it."
}

variable "greeting" {
  type    = string
  default = "hello from landscaper"
}

resource "landscaper_target" "cluster" {
  name       = "local"
  kubeconfig = file(var.kubeconfig_path)
}

resource "landscaper_installation" "echo" {
  name      = "echo"
  blueprint = { path = "${path.module}/blueprints/echo-server" }
  imports = {
    targets = { cluster = landscaper_target.cluster.target }
    data = {
      namespace = var.namespace
      replicas  = 2
      greeting  = var.greeting
    }
  }
}

resource "landscaper_installation" "client" {
  name      = "client"
  blueprint = { path = "${path.module}/blueprints/client" }
  imports = {
    targets = { cluster = landscaper_target.cluster.target }
    data = {
      namespace = var.namespace
      echoURL   = landscaper_installation.echo.exports.url
    }
  }
}
