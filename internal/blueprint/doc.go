// Package blueprint loads Landscaper blueprints and renders one
// installation's blueprint without a cluster: it validates the imports
// (JSON schema, target types, required/default, conditional imports), runs
// the import, deploy and subinstallation executions (GoTemplate or Spiff,
// see package template), and later the export executions, validating the
// exports. It also evaluates the installation's import and export data
// mappings (Spiff).
//
// The engine renders a whole installation tree by calling Render per
// installation and Subinstallation for each rendered subinstallation.
//
// Layout:
//   - api.go: the contract the engine codes against (inputs and outputs).
//   - spec.go, load.go, fieldcheck.go, validate.go: blueprint.yaml model,
//     defaults, unknown-field warnings and validation.
//   - resolve.go: where blueprints and component descriptors come from.
//   - imports.go, render.go, deployitems.go, subinstallation.go: Render.
//   - exports.go: RenderExports; datamapping.go: MapImportData/MapExportData.
//   - component/: component descriptors v2 and local component archives.
//   - jsonschema/: schema validation with local://, blueprint://, cd:// refs.
//   - template/: the GoTemplate and Spiff executors behind one interface.
//
// Every error is terminal (failure.NewTerminal): nothing here heals by
// retrying. Errors never contain target configs or secret-looking values.
package blueprint
