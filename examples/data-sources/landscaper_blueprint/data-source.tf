# What a blueprint declares, read and validated at plan time without a
# cluster. Invalid blueprints fail the plan with an error on `blueprint`;
# unknown fields (e.g. `jsonSchema:`) are listed in `warnings`.
data "landscaper_blueprint" "echo" {
  blueprint = { path = "${path.module}/blueprints/echo-server" }
}

# The imports a module must pass, e.g. to check a variable early.
output "required_imports" {
  value = [for i in data.landscaper_blueprint.echo.imports : i.name if i.required]
}

# Schemas and defaults are JSON strings.
output "replicas_default" {
  value = one([for i in data.landscaper_blueprint.echo.imports : jsondecode(i.default) if i.name == "replicas"])
}

output "exports" {
  value = { for e in data.landscaper_blueprint.echo.exports : e.name => e.type }
}

output "blueprint_warnings" {
  value = data.landscaper_blueprint.echo.warnings
}
