# Redeploy an installation now, without a configuration change and without
# taint: terraform apply -invoke=action.landscaper_reconcile.app
action "landscaper_reconcile" "app" {
  config {
    installation  = landscaper_installation.app.id
    targets       = [landscaper_target.cluster.target]
    reconcile_key = landscaper_installation.app.reconcile_key
  }
}

# Or reconcile whenever something else changes, here a rotated certificate.
resource "terraform_data" "certificate" {
  input = var.certificate_serial
  lifecycle {
    action_trigger {
      events  = [after_update]
      actions = [action.landscaper_reconcile.app]
    }
  }
}
