# Scale workloads: `installations` installations, each rendering
# `item_count` independent ConfigMap deploy items (N = 100 and 1,000 in one
# installation; 50 installations × 20 items).

terraform {
  required_providers {
    landscaper = {
      source = "landscaper-terraform/landscaper"
    }
  }
}

provider "landscaper" {
  parallelism = var.parallelism
  cluster_qps = var.cluster_qps
}

variable "parallelism" {
  type    = number
  default = null # the provider's default
}

variable "cluster_qps" {
  type    = number
  default = null # the provider's default
}

variable "kubeconfig_path" {
  type = string
}

variable "namespace" {
  type        = string
  description = "Existing namespace the ConfigMaps go to (created and deleted by tools/bench/run.sh)."
}

variable "item_count" {
  type    = number
  default = 100
}

variable "changed_item" {
  type        = number
  default     = -1
  description = "Index of the item (of the first installation) whose ConfigMap changes; -1: none."
}

variable "installations" {
  type    = number
  default = 1
}

resource "landscaper_target" "cluster" {
  name       = "bench"
  kubeconfig = file(var.kubeconfig_path)
}

resource "landscaper_installation" "scale" {
  count     = var.installations
  name      = "scale-${count.index}"
  blueprint = { path = "${path.module}/blueprint" }
  imports = {
    targets = { cluster = landscaper_target.cluster.target }
    data = {
      namespace = var.namespace
      prefix    = "i${count.index}"
      count     = var.item_count
      changed   = count.index == 0 ? var.changed_item : -1
    }
  }
}
