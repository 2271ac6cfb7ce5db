package provider

import (
	"errors"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/path"
)

// inputError is a problem with one attribute of the configuration; it
// becomes a diagnostic on that attribute (addError). Every resource and
// data source of the provider reports attribute problems this way.
type inputError struct {
	Path path.Path
	Err  error
}

func (e *inputError) Error() string { return e.Err.Error() }
func (e *inputError) Unwrap() error { return e.Err }

// attrErr marks err as a problem of the attribute at p; nil stays nil.
func attrErr(p path.Path, err error) error {
	if err == nil {
		return nil
	}
	return &inputError{Path: p, Err: err}
}

// attrMsg is attrErr with a message.
func attrMsg(p path.Path, msg string) error { return attrErr(p, errors.New(msg)) }

// addError turns an engine or input error into a diagnostic, on the
// attribute it concerns when there is one.
func addError(diags interface {
	AddError(string, string)
	AddAttributeError(path.Path, string, string)
}, summary string, err error) {
	if err == nil {
		err = fmt.Errorf("unknown error")
	}
	if ie, ok := asInputError(err); ok {
		diags.AddAttributeError(ie.Path, summary, ie.Err.Error())
		return
	}
	diags.AddError(summary, err.Error())
}

// asInputError finds the attribute an error is about, if any.
func asInputError(err error) (*inputError, bool) {
	var ie *inputError
	ok := errors.As(err, &ie)
	return ie, ok
}
