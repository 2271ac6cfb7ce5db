# Peer of the scale workload: `item_count` independent ConfigMaps as
# kubernetes_manifest resources of the hashicorp/kubernetes provider (built
# from the Go module proxy; see RESULTS.md, "The kubernetes peer"). Not run
# by run.sh yet: point a dev_overrides entry for hashicorp/kubernetes at the
# binary and time `terraform apply` / `destroy` in turns with the scale
# workload of the same item_count.

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
