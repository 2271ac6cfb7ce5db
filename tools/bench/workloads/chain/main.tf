# Workload A: one installation whose blueprint renders `item_count`
# ConfigMap deploy items, each depending on the one before it, so the
# engine must run them strictly one after the other.

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
  description = "Existing namespace the ConfigMaps go to (created and deleted by tools/bench/run.sh)."
}

variable "item_count" {
  type    = number
  default = 20
}

resource "landscaper_target" "cluster" {
  name       = "bench"
  kubeconfig = file(var.kubeconfig_path)
}

resource "landscaper_installation" "chain" {
  name      = "chain"
  blueprint = { path = "${path.module}/blueprint" }
  imports = {
    targets = { cluster = landscaper_target.cluster.target }
    data = {
      namespace = var.namespace
      count     = var.item_count
    }
  }
}
