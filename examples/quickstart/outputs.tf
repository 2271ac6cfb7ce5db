output "echo_url" {
  description = "Exported by the echo installation's export execution."
  value       = landscaper_installation.echo.exports.url
}

output "client_config_map" {
  description = "Exported by the client installation, which imported echo_url."
  value       = landscaper_installation.client.exports.configMap
}

output "deploy_items" {
  description = "What each installation deployed (deploy item paths) and the items that did not succeed, with why."
  value = {
    for inst in [landscaper_installation.echo, landscaper_installation.client] :
    inst.name => { items = keys(inst.deploy_items), not_succeeded = inst.deploy_item_errors }
  }
}
