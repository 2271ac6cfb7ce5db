# A Kubernetes cluster, from a kubeconfig.
resource "landscaper_target" "cluster" {
  name       = "cluster"
  kubeconfig = file(var.kubeconfig_path)
}

# Any other target type, with its configuration as JSON.
resource "landscaper_target" "dns" {
  name   = "dns"
  type   = "example.com/dns-provider"
  config = jsonencode({ zone = "example.com", credentials = var.dns_credentials })
}

variable "kubeconfig_path" { type = string }
variable "dns_credentials" {
  type      = string
  sensitive = true
}

# A cluster whose kubeconfig is never written to state, a plan file or the
# installation's private state: the provider block holds it, and the target
# only refers to it by name. With an ephemeral variable (Terraform >= 1.10,
# OpenTofu >= 1.11) the value is asked for at every plan, apply and destroy.
provider "landscaper" {
  target_kubeconfigs = { prod = var.prod_kubeconfig }
}

resource "landscaper_target" "prod" {
  name                     = "prod"
  kubeconfig_from_provider = true
}

variable "prod_kubeconfig" {
  type      = string
  sensitive = true
  ephemeral = true
}
