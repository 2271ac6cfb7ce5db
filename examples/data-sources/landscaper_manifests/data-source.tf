# Landscaper manifests as they are kept in git: Installations, DataObjects,
# Targets and Contexts, one or more per file.
data "landscaper_manifests" "landscape" {
  yaml = join("\n---\n", [for f in sort(fileset(path.module, "landscape/*.yaml")) : file("${path.module}/${f}")])
}

# One landscaper_installation per Installation manifest; the DataObjects,
# Targets and Contexts they import come along in manifest_objects.
resource "landscaper_installation" "landscape" {
  for_each         = data.landscaper_manifests.landscape.installations
  name             = each.value.name
  namespace        = each.value.namespace
  manifest         = each.value.manifest
  manifest_objects = data.landscaper_manifests.landscape.objects
}
