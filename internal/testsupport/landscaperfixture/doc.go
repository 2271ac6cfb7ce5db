// Package landscaperfixture is the project's own imitation, as data, of
// what a running Landscaper leaves behind after it installed one root
// Installation successfully, written from Landscaper's sources before
// there were recordings of its controllers. The migration is tested
// against those recordings (landscaperrecording; its DIFFERENCES.md says
// where this imitation differs); this package remains for what a
// recording cannot show: variants and damaged objects that Landscaper's
// controllers do not produce (landscaperstate's error variants read
// Build's objects with a fake client), and the CRDs (EnsureCRDs) that let
// an API server serve Landscaper's landscaper.gardener.cloud/v1alpha1
// kinds without Landscaper.
//
// The landscape ("shop") is one root Installation with an inline
// blueprint, a Target import, data imports from DataObjects, an import
// data mapping, data exports with an export data mapping, one manifest
// deploy item, and a subinstallation ("web") with a manifest deploy item
// and a Helm deploy item that depends on it. The shapes (labels,
// annotations, owner references, generated names, DataObject naming, the
// compressed deploy item templates of an Execution, the deployers'
// providerStatus) follow Landscaper's v1alpha1 API; the text here is this
// package's own.
package landscaperfixture
