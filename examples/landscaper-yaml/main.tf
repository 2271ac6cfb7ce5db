# Landscaper manifests applied as they are: every Installation under
# manifests/ becomes one landscaper_installation; the DataObjects they
# import come from the same files. What differs per environment (the
# Target with its kubeconfig, the namespace to deploy into) is not kept in
# git: it is added here as two more manifests.

variable "kubeconfig_path" {
  type        = string
  description = "Kubeconfig of the cluster the Target points at."
}

variable "namespace" {
  type        = string
  default     = "default"
  description = "Existing namespace the installations deploy their ConfigMaps into."
}

variable "manifests_dir" {
  type        = string
  default     = null
  description = "Directory of the manifests; manifests/ next to this file by default."
}

locals {
  manifests_dir = coalesce(var.manifests_dir, "${path.module}/manifests")
  environment = [
    yamlencode({
      apiVersion = "landscaper.gardener.cloud/v1alpha1"
      kind       = "Target"
      metadata   = { name = "local-cluster" }
      spec = {
        type   = "landscaper.gardener.cloud/kubernetes-cluster"
        config = { kubeconfig = file(var.kubeconfig_path) }
      }
    }),
    yamlencode({
      apiVersion = "landscaper.gardener.cloud/v1alpha1"
      kind       = "DataObject"
      metadata   = { name = "target-namespace" }
      data       = var.namespace
    }),
  ]
}

data "landscaper_manifests" "landscape" {
  yaml = join("\n---\n", [for f in sort(fileset(local.manifests_dir, "*.yaml")) : file("${local.manifests_dir}/${f}")])
}

resource "landscaper_installation" "landscape" {
  for_each         = data.landscaper_manifests.landscape.installations
  name             = each.value.name
  namespace        = each.value.namespace
  manifest         = each.value.manifest
  manifest_objects = join("\n---\n", concat([data.landscaper_manifests.landscape.objects], local.environment))
}

output "web_summary" {
  value = landscaper_installation.landscape["web-config"].exports.summary
}

output "tree_echoed" {
  value = landscaper_installation.landscape["tree"].exports.echoed
}
