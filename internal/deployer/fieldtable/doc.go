// Package fieldtable is the table of Landscaper's deploy item
// configuration, field by field: for every field of the manifest and Helm
// deployers' configurations and of the deploy item template, the
// Landscaper version that introduced it and what the provider does with
// it. Its test holds the table to the decoders (every field they declare
// has a row, every row a field) and to Landscaper v0.152's fields, and
// the guide docs/guides/landscaper-deploy-item-fields.md to the table, so
// none of them can fall behind the others.
package fieldtable
