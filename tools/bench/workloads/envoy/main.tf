# Workload E (issue 34 item 9): envoy gateway's public Helm chart
# (gateway-helm, ~1.5 MB rendered with its CRDs), fetched and prepared by
# tools/bench/run.sh into blueprint/charts/gateway-helm, installed as a
# Helm release and waited for with the default readiness checks; compared
# with helm_release (workloads/envoy-peer) and `helm install --wait`.

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

resource "landscaper_installation" "envoy" {
  name      = "envoy"
  blueprint = { path = "${path.module}/blueprint" }
  imports = {
    targets = { cluster = landscaper_target.cluster.target }
    data = {
      namespace = var.namespace
    }
  }
}
