package landscaperrecording

import "embed"

// inputs are the landscapes' inputs (all: the charts' _helpers.tpl).
//
//go:embed all:testdata/landscapes
var inputs embed.FS
