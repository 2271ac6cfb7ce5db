# Workload C (issue 34): one Helm release of a chart that renders about
# 25,000 lines (`maps` ConfigMaps of `keys` keys, nested as a CRD's
# schema is, plus a small ConfigMap), and a one-field change of it
# (`greeting`): its plan, and `terraform show` of that plan, measured
# against the create's plan (tools/bench/run.sh bigchart).

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

variable "greeting" {
  type    = string
  default = "hello"
}

variable "maps" {
  type    = number
  default = 10
}

variable "keys" {
  type        = number
  default     = 1250
  description = "Keys per map; each key renders as two lines."
}

resource "landscaper_target" "cluster" {
  name       = "bench"
  kubeconfig = file(var.kubeconfig_path)
}

resource "landscaper_installation" "big" {
  name      = "big"
  blueprint = { path = "${path.module}/blueprint" }
  imports = {
    targets = { cluster = landscaper_target.cluster.target }
    data = {
      namespace = var.namespace
      greeting  = var.greeting
      maps      = var.maps
      keys      = var.keys
    }
  }
}
