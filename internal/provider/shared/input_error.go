// Package shared holds what every Terraform type of the provider needs:
// diagnostics (AddError, AddWarning) and the secrets they mask
// (Security), the model -> spec reader (RootSpec, ReadImports, HclForm),
// schema pieces, and the provider's data (ProviderData) that Configure
// builds. It imports no type's package.
package shared

import (
	"errors"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/function"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/hostaccess"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/redact"
)

// Errors become diagnostics here, and only here: AddError and AddWarning
// mask every secret in them and put them on the attribute they concern.

// inputError is a problem with one attribute of the configuration; it
// becomes a diagnostic on that attribute (AddError). Every resource and
// data source of the provider reports attribute problems this way.
type inputError struct {
	Path path.Path
	Err  error
}

func (e *inputError) Error() string { return e.Err.Error() }
func (e *inputError) Unwrap() error { return e.Err }

// AttrErr marks err as a problem of the attribute at p; nil stays nil.
func AttrErr(p path.Path, err error) error {
	if err == nil {
		return nil
	}
	return &inputError{Path: p, Err: err}
}

// AttrMsg is AttrErr with a message.
func AttrMsg(p path.Path, msg string) error { return AttrErr(p, errors.New(msg)) }

// NotedError is err with a note for the user on a line of its own.
type NotedError struct {
	Err  error
	Note string
}

func (e NotedError) Error() string { return e.Err.Error() + "\n" + e.Note }
func (e NotedError) Unwrap() error { return e.Err }

// AsInputError finds the attribute an error is about, if any.
func AsInputError(err error) (*inputError, bool) {
	var ie *inputError
	ok := errors.As(err, &ie)
	return ie, ok
}

// InputPath is the attribute of the input a blueprint or engine error
// names (blueprint.InputOf); the blueprint when it names none. Import
// errors point at `imports` as a whole: Terraform and OpenTofu resolve a
// diagnostic's path only to a top-level attribute of the configuration,
// and a path into the object falls back to the whole block. The message
// names the import.
func InputPath(err error) path.Path {
	in, _ := blueprint.InputOf(err)
	switch in.Input {
	case blueprint.InputImport:
		return path.Root("imports")
	case blueprint.InputImportDataMapping:
		return path.Root("import_data_mappings")
	case blueprint.InputExportDataMapping:
		return path.Root("export_data_mappings")
	case blueprint.InputComponent:
		return path.Root("component_descriptor")
	}
	return path.Root("blueprint")
}

// errorPath is the attribute err concerns: the input a blueprint.InputError
// in it names (inputPath), else the attribute an inputError marks; false
// when it concerns none.
func errorPath(err error) (path.Path, bool) {
	if _, ok := blueprint.InputOf(err); ok {
		return InputPath(err), true
	}
	if ie, ok := AsInputError(err); ok {
		return ie.Path, true
	}
	if ce := (*hostaccess.ContextError)(nil); errors.As(err, &ce) {
		return path.Root("context"), true
	}
	return path.Empty(), false
}

// Diagnostics is where AddError and AddWarning write (diag.Diagnostics).
type Diagnostics interface {
	AddError(summary, detail string)
	AddAttributeError(p path.Path, summary, detail string)
	AddWarning(summary, detail string)
	AddAttributeWarning(p path.Path, summary, detail string)
}

// AddError turns err into an error diagnostic on the attribute it
// concerns (errorPath), its message masked: every secret sec knows,
// every URL credential and every value other programs' errors quote
// (redact). sec is nil only where no secret can be known yet (provider
// configuration, validation): then the last two are masked.
func AddError(diags Diagnostics, sec *Security, summary string, err error) {
	if err == nil {
		err = fmt.Errorf("unknown error")
	}
	msg := sec.Scrub(err.Error())
	if p, ok := errorPath(err); ok {
		diags.AddAttributeError(p, summary, msg)
		return
	}
	diags.AddError(summary, msg)
}

// AddWarning is AddError for an error that does not stop the operation.
func AddWarning(diags Diagnostics, sec *Security, summary string, err error) {
	msg := sec.Scrub(err.Error())
	if p, ok := errorPath(err); ok {
		diags.AddAttributeWarning(p, summary, msg)
		return
	}
	diags.AddWarning(summary, msg)
}

// ArgumentError is AddError for an argument of a provider function: no
// secret is known there, so URL credentials and quoted values are masked.
func ArgumentError(position int64, err error) *function.FuncError {
	var unknown *Security
	return function.NewArgumentFuncError(position, unknown.Scrub(err.Error()))
}

// Scrub masks in msg every secret s knows, every URL credential and the
// values other programs' errors quote; a nil s the last two only.
func (s *Security) Scrub(msg string) string {
	var secrets *redact.Secrets
	if s != nil {
		secrets = &s.Secrets
	}
	return secrets.String(msg)
}
