// Package landscaperyaml reads Landscaper's own manifests — Installation,
// DataObject, Target and Context objects of
// landscaper.gardener.cloud/v1alpha1, as users keep them in git — and
// turns one root Installation, with the objects it refers to, into the
// inputs the HCL form of landscaper_installation gives the engine: a
// blueprint source, a component descriptor, imports, data mappings.
//
// Every field of the manifests is either translated or refused with an
// error naming it (document, object and field path), so nothing a user
// wrote is silently ignored. Fields that only steer Landscaper's
// controllers and have no effect on what is deployed (status, server-set
// metadata) are accepted and dropped; a few that Terraform takes over
// (automaticReconcile, registry pull secrets) produce warnings.
//
// The package knows neither Terraform nor clusters: Secret and ConfigMap
// imports are returned as references for the caller to read, component
// descriptors in registries as a reference for the caller to load.
package landscaperyaml
