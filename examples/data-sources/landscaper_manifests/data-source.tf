# Landscaper manifests as they are kept in git: Installations, DataObjects,
# Targets and Contexts, one or more per file.
data "landscaper_manifests" "landscape" {
  yaml = join("\n---\n", [for f in sort(fileset(path.module, "landscape/*.yaml")) : file("${path.module}/${f}")])
}

output "installations" {
  value = { for name, i in data.landscaper_manifests.landscape.installations : name => i.namespace }
}
