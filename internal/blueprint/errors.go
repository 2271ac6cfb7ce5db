package blueprint

import (
	"errors"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/failure"
)

// Reasons attached (with failure.NewTerminal) to blueprint errors. Nothing
// a blueprint does heals by retrying: every error here is terminal.
const (
	ReasonInvalidBlueprint       = "InvalidBlueprint"
	ReasonImportNotSatisfied     = "ImportNotSatisfied"
	ReasonImportValidationFailed = "ImportValidationFailed"
	ReasonTemplateFailed         = "TemplateFailed"
	ReasonExportValidationFailed = "ExportValidationFailed"
	ReasonDataMappingFailed      = "DataMappingFailed"
)

func terminal(reason string, err error) error { return failure.NewTerminal(reason, err) }

// Input is the input of an installation that an error is about, so that
// the caller can point at what to change without reading the message.
type Input string

// The inputs of an installation.
const (
	// InputBlueprint is the blueprint: its files, templates and the
	// subinstallations it wires. Errors without an InputError are about it.
	InputBlueprint Input = "blueprint"
	// InputComponent is the component descriptor.
	InputComponent Input = "component descriptor"
	// InputImport is one import (InputError.Name) or, without a name, the
	// imports as a whole (an import execution rejected them).
	InputImport Input = "import"
	// InputImportDataMapping is the importDataMappings.
	InputImportDataMapping Input = "importDataMappings"
	// InputExportDataMapping is the exportDataMappings.
	InputExportDataMapping Input = "exportDataMappings"
)

// InputError marks an error as caused by one input of an installation.
type InputError struct {
	Input Input
	// Name is the import's name for InputImport, else "".
	Name string
	Err  error
}

func (e *InputError) Error() string { return e.Err.Error() }
func (e *InputError) Unwrap() error { return e.Err }

// NewInputError marks err as caused by input (name: the import's name).
// A nil err stays nil.
func NewInputError(input Input, name string, err error) error {
	if err == nil {
		return nil
	}
	return &InputError{Input: input, Name: name, Err: err}
}

// InputOf returns the input the (outermost) InputError in err's chain
// names, or InputBlueprint with ok false when there is none.
func InputOf(err error) (in *InputError, ok bool) {
	if errors.As(err, &in) {
		return in, true
	}
	return &InputError{Input: InputBlueprint, Err: err}, false
}
