# Workload B: one installation whose blueprint installs a Helm chart
# (shipped next to the blueprint) with a 2-replica Deployment, as a real
# Helm release (helmDeployment defaults to true), waiting until the
# Deployment is ready (the default readiness checks).

terraform {
  required_providers {
    landscaper = {
      source = "landscaper-terraform/landscaper"
    }
  }
}

provider "landscaper" {}

variable "kubeconfig_path" {
  type = string
}

variable "namespace" {
  type        = string
  description = "Existing namespace the release goes to (created and deleted by tools/bench/run.sh)."
}

resource "landscaper_target" "cluster" {
  name       = "bench"
  kubeconfig = file(var.kubeconfig_path)
}

resource "landscaper_installation" "helm" {
  name      = "helm"
  blueprint = { path = "${path.module}/blueprint" }
  imports = {
    targets = { cluster = landscaper_target.cluster.target }
    data = {
      namespace = var.namespace
    }
  }
}
