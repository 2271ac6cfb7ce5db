# Installations this provider deployed, found by their inventories in the
# clusters of the provider block's target_kubeconfigs (after a lost state,
# or to take one over in another workspace).
list "landscaper_installation" "deployed" {
  provider = landscaper
  config {
    namespace = "landscapes"
  }
}

# Root Installations of a running Landscaper in the host cluster of the
# provider's kubernetes block, to migrate.
list "landscaper_installation" "landscaper" {
  provider = landscaper
  config {
    source = "landscaper"
    labels = { "team" = "shop" }
  }
}
