# The floor of a workload of many resources at a given state size:
# `installations` landscaper_target resources, which touch no cluster, each
# holding about 2 × `state_kb` KiB in its state (the config and the target
# built from it). Terraform rewrites the whole state file after every
# resource it creates or destroys, so what it costs grows with the state's
# size as much as with the number of resources; tools/bench/run.sh scale
# sets state_kb so that this state is as large as the scale workload's and
# prints ours/this ratio: what the provider costs beyond what Terraform
# spends on a state of that size.

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
  description = "Unused; every workload gets one."
}

variable "namespace" {
  type        = string
  description = "Unused; every workload gets one."
}

variable "installations" {
  type    = number
  default = 100
}

variable "state_kb" {
  type    = number
  default = 32
}

resource "landscaper_target" "state" {
  count = var.installations
  name  = "state-${count.index}"
  type  = "example.com/state-floor"
  # 64 hex digits per entry, 16 entries per KiB; distinct per resource so
  # that nothing is shared between instances.
  config = jsonencode({ blob = join("", [for i in range(var.state_kb * 16) : format("%064x", i * 7919 + count.index)]) })
}
