# Unit tests of the blueprint in ../blueprint: each run renders it for other
# imports (command = plan: data sources are read, nothing is deployed, no
# cluster is needed) and asserts on the deploy items, their configuration
# and the declared exports.

run "defaults" {
  command = plan

  assert {
    condition     = keys(output.deploy_items) == ["settings", "web"]
    error_message = "Without expose, the blueprint renders settings and web only, got ${jsonencode(keys(output.deploy_items))}."
  }
  assert {
    condition     = output.deploy_items.web.depends_on == tolist(["settings"])
    error_message = "web must wait for its settings."
  }
  assert {
    condition     = output.deploy_items.web.target == "cluster"
    error_message = "web deploys to the cluster import."
  }
  assert {
    condition     = nonsensitive(output.manifests.web[0].spec.replicas) == 2
    error_message = "The replicas default of the blueprint (2) reaches the Deployment."
  }
  assert {
    condition     = nonsensitive(output.manifests.settings[0].metadata.namespace) == "web"
    error_message = "The ConfigMap goes into the namespace import."
  }
}

run "exposed_with_three_replicas" {
  command = plan

  variables {
    namespace = "shop"
    replicas  = 3
    expose    = true
  }

  assert {
    condition     = keys(output.deploy_items) == ["service", "settings", "web"]
    error_message = "With expose, the blueprint also renders the service item."
  }
  assert {
    condition     = output.deploy_items.service.depends_on == tolist(["web"])
    error_message = "The service waits for the Deployment."
  }
  assert {
    condition     = nonsensitive(output.manifests.web[0].spec.replicas) == 3
    error_message = "The replicas import reaches the Deployment."
  }
  assert {
    condition     = nonsensitive(output.manifests.settings[0].data.replicas) == "3"
    error_message = "The settings ConfigMap records the replicas as a string."
  }
  assert {
    condition     = nonsensitive(output.manifests.service[0].metadata.namespace) == "shop"
    error_message = "The Service goes into the namespace import."
  }
}

run "declares_url_export" {
  command = plan

  assert {
    condition     = output.exports == { url = "data" }
    error_message = "The blueprint exports exactly url, as data."
  }
  assert {
    condition     = jsondecode(one([for e in data.landscaper_blueprint.web.exports : e.schema if e.name == "url"])) == { type = "string" }
    error_message = "url is declared as a string."
  }
}

# The imports' JSON schemas are enforced when rendering: these fail the check
# of the helper module, whose data source reports the schema violation.
run "replicas_above_maximum_rejected" {
  command = plan
  module {
    source = "./tests/validate"
  }
  variables {
    imports = { namespace = "web", replicas = 11 }
  }
  expect_failures = [check.imports_accepted]
}

run "namespace_not_a_dns_label_rejected" {
  command = plan
  module {
    source = "./tests/validate"
  }
  variables {
    imports = { namespace = "Not_A_Label" }
  }
  expect_failures = [check.imports_accepted]
}

run "valid_imports_accepted" {
  command = plan
  module {
    source = "./tests/validate"
  }
  variables {
    imports = { namespace = "web", replicas = 10, expose = true }
  }
}
