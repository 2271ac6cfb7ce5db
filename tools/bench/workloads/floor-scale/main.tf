# The floor of a workload of many resources: `installations`
# landscaper_target resources, which touch no cluster. Terraform plans,
# refreshes and destroys them as many resource instances as the scale
# workload's installations, so what the scale workload costs beyond this
# is this provider's own work (tools/bench/run.sh scale prints the ratio).

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

variable "installations" {
  type    = number
  default = 50
}

resource "landscaper_target" "cluster" {
  count      = var.installations
  name       = "bench-${count.index}"
  kubeconfig = file(var.kubeconfig_path)
}
