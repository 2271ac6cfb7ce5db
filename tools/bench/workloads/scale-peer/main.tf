# Peer of the scale workload: `item_count` independent ConfigMaps as
# kubernetes_manifest resources of the hashicorp/kubernetes provider (built
# from the Go module proxy; see RESULTS.md, "The kubernetes peer"), run in
# turns with the scale workload by `PEER_KUBERNETES=<binary> run.sh scale`.

terraform {
  required_providers {
    kubernetes = {
      source = "hashicorp/kubernetes"
    }
  }
}

variable "kubeconfig_path" {
  type = string
}

variable "namespace" {
  type = string
}

variable "item_count" {
  type    = number
  default = 20
}

provider "kubernetes" {
  config_path = var.kubeconfig_path
}

resource "kubernetes_manifest" "cm" {
  count = var.item_count
  manifest = {
    apiVersion = "v1"
    kind       = "ConfigMap"
    metadata   = { name = "bench-cm-${count.index}", namespace = var.namespace }
    data       = { index = tostring(count.index) }
  }
}
