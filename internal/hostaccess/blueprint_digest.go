package hostaccess

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"strings"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint"
)

// BlueprintDigest hashes every file of the blueprint's filesystem (names
// and contents, in walk order, which is lexical) and the manifest digests
// of the component versions read from registries. The plan compares it
// with the state, so an edit that changes no deploy item — an export
// template, a schema — or a component tag that moved still starts a new job.
// What Terraform itself writes beside a blueprint kept in the module's own
// directory (`blueprint = { path = path.module }`) is not the blueprint and
// is left out (notInBlueprint); otherwise every apply would change it.
func BlueprintDigest(bp *blueprint.Blueprint, comp *blueprint.Component) (string, error) {
	h := sha256.New()
	if versions := comp.DigestSummary(); versions != "" {
		_, _ = io.WriteString(h, "components\x00"+versions+"\x00")
	}
	if err := hashFiles(h, bp.Files); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// ComponentFilesDigest hashes the files of the component archive a local
// component descriptor came from (its blobs, which nested blueprints and
// resources are read from); "" for a component without one (inline, or
// read from a registry, whose manifest digests BlueprintDigest holds).
func ComponentFilesDigest(comp *blueprint.Component) (string, error) {
	if comp == nil || comp.Archive == nil {
		return "", nil
	}
	h := sha256.New()
	if err := hashFiles(h, comp.Archive); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// hashFiles writes every file of files into h: names and contents, in
// walk order, which is lexical.
func hashFiles(h io.Writer, files fs.FS) error {
	return fs.WalkDir(files, ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if name != "." && notInBlueprint(d.Name()) {
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if d.IsDir() {
			return nil
		}
		if d.Type()&fs.ModeSymlink != 0 {
			if info, err := fs.Stat(files, name); err == nil && info.IsDir() {
				return fmt.Errorf("%s is a symbolic link to a directory, which a blueprint cannot contain: "+
					"copy the directory into the blueprint, or link its files one by one", name)
			}
		}
		f, err := files.Open(name)
		if err != nil {
			return err
		}
		defer f.Close()
		_, _ = io.WriteString(h, name+"\x00")
		_, err = io.Copy(h, f)
		_, _ = io.WriteString(h, "\x00")
		return err
	})
}

// notInBlueprint reports whether a file or folder of that name is
// Terraform's or a tool's, not the blueprint's: dotfiles and dot-folders
// (`.terraform/`, `.git/`, `.terraform.lock.hcl`) and state files
// (`terraform.tfstate`, its backups, `terraform.tfstate.d/`).
func notInBlueprint(base string) bool {
	return strings.HasPrefix(base, ".") || strings.Contains(base, ".tfstate")
}
