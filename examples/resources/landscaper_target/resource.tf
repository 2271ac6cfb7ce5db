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
