package provider

import (
	"crypto/sha256"
	"encoding/hex"
	"io"
	"io/fs"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint"
)

// blueprintDigest hashes every file of the blueprint's filesystem (names
// and contents, in walk order, which is lexical) and the manifest digests
// of the component versions read from registries. The plan compares it
// with the state, so an edit that changes no deploy item — an export
// template, a schema — or a component tag that moved still starts a new job.
func blueprintDigest(bp *blueprint.Blueprint, comp *blueprint.Component) (string, error) {
	h := sha256.New()
	if versions := comp.DigestSummary(); versions != "" {
		_, _ = io.WriteString(h, "components\x00"+versions+"\x00")
	}
	err := fs.WalkDir(bp.Files, ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		f, err := bp.Files.Open(name)
		if err != nil {
			return err
		}
		defer f.Close()
		_, _ = io.WriteString(h, name+"\x00")
		_, err = io.Copy(h, f)
		_, _ = io.WriteString(h, "\x00")
		return err
	})
	if err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
