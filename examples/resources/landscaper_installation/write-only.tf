# Write-only imports (Terraform >= 1.11, OpenTofu >= 1.11): the password is
# rendered and deployed but stored nowhere, not even in the plan file.
# Raise data_wo_version to deploy a new value.
ephemeral "random_password" "db" {
  length = 24
}

resource "landscaper_installation" "database" {
  name      = "database"
  blueprint = { path = "${path.module}/blueprints/database" }
  imports = {
    targets         = { cluster = landscaper_target.cluster.target }
    data            = { replicas = 1 }
    data_wo         = { password = ephemeral.random_password.db.result }
    data_wo_version = 1
  }
}
