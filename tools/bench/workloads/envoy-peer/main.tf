# Peer of workload E: the same chart (copied here by tools/bench/run.sh)
# as a helm_release of the hashicorp/helm provider, waiting until ready.

terraform {
  required_providers {
    helm = {
      source = "hashicorp/helm"
    }
  }
}

variable "kubeconfig_path" {
  type = string
}

variable "namespace" {
  type = string
}

provider "helm" {
  kubernetes = {
    config_path = var.kubeconfig_path
  }
}

resource "helm_release" "envoy" {
  name      = "eg"
  namespace = var.namespace
  chart     = "${path.module}/gateway-helm"
  wait      = true
  timeout   = 240
}
