# The floor: one landscaper_target and nothing that touches the cluster.
# Creating and destroying it costs what every `terraform apply` of this
# provider costs on this machine (CLI start, plan, provider plugin starts),
# so the other workloads' figures can be read as floor + real work.

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
  description = "Unused; every workload gets one."
}

resource "landscaper_target" "cluster" {
  name       = "bench"
  kubeconfig = file(var.kubeconfig_path)
}
