# The deploy items a blueprint renders for given imports, without a
# cluster and without deploying anything: the same installation paths
# and names `landscaper_installation` would show. Useful to
# review a blueprint change or to test a blueprint's templates in CI.
# Terraform reads it during plan once every input is known (inputs from
# resources still to be created make it read during apply).
data "landscaper_rendered_installation" "echo" {
  name      = "echo"
  blueprint = { path = "${path.module}/blueprints/echo-server" }
  imports = {
    # Rendering never contacts the target's cluster.
    targets = { cluster = landscaper_target.cluster.target }
    data = {
      namespace = "echo"
      replicas  = 2
      greeting  = "hello"
    }
  }
  import_data_mappings = {
    maxSurge = "(( replicas / 2 ))"
  }
}

output "deploy_items" {
  value = { for item in data.landscaper_rendered_installation.echo.deploy_items :
  "${item.installation}/${item.name}" => { type = item.type, depends_on = item.depends_on } }
}

# Subinstallations that import a sibling's exports render only at apply.
output "pending" {
  value = data.landscaper_rendered_installation.echo.subinstallations_pending
}
