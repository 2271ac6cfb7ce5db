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

// ErrImportNotSatisfied is wrapped by errors about a required import that
// was not given, so the engine can tell "not yet exported" from "invalid".
var ErrImportNotSatisfied = errors.New("required import not satisfied")

func terminal(reason string, err error) error { return failure.NewTerminal(reason, err) }
