# A helper module for the tests that expect the blueprint to refuse its
# imports. A provider error cannot be expected (`expect_failures` takes only
# checkable objects), but the error of a data source scoped to a check
# block fails that check, which can be.

terraform {
  required_providers {
    landscaper = {
      source = "landscaper-terraform/landscaper"
    }
  }
}

variable "imports" {
  type        = any
  description = "The data imports to render the blueprint with."
}

check "imports_accepted" {
  data "landscaper_rendered_installation" "web" {
    name      = "web"
    blueprint = { path = "${path.module}/../../blueprint" }
    imports = {
      targets = { cluster = file("${path.module}/../../target.json") }
      data    = var.imports
    }
  }

  assert {
    condition     = length(data.landscaper_rendered_installation.web.deploy_items) > 0
    error_message = "The blueprint rendered no deploy items."
  }
}
