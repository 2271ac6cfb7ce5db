// Package checkout finds the source checkout a test or tool runs in, and the
// command-line tools that `make tools` builds into its .tools/bin folder.
//
// Tests run with the package folder as working directory and commands run
// from wherever make starts them, so the checkout is found by walking up to
// the go.mod of this module rather than by a fixed path.
package checkout

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// ModulePath is the module whose go.mod marks the top of the checkout.
const ModulePath = "github.com/landscaper-terraform/terraform-provider-landscaper"

// Root returns the top folder of the checkout that contains the working directory.
func Root() (string, error) {
	wd, err := os.Getwd()
	if err != nil {
		return "", fmt.Errorf("finding the checkout: %w", err)
	}
	return RootFrom(wd)
}

// RootFrom returns the nearest folder at or above dir whose go.mod declares ModulePath.
// Nested modules (tools/...) are passed over because their module path differs.
func RootFrom(dir string) (string, error) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return "", fmt.Errorf("finding the checkout above %q: %w", dir, err)
	}
	for d := dir; ; d = filepath.Dir(d) {
		ok, err := declaresModule(filepath.Join(d, "go.mod"))
		if err != nil {
			return "", err
		}
		if ok {
			return d, nil
		}
		if filepath.Dir(d) == d {
			return "", fmt.Errorf("no go.mod of module %s at or above %q: run from inside the checkout", ModulePath, dir)
		}
	}
}

func declaresModule(goMod string) (bool, error) {
	f, err := os.Open(goMod)
	if errors.Is(err, os.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("reading %s: %w", goMod, err)
	}
	defer f.Close()
	lines := bufio.NewScanner(f)
	for lines.Scan() {
		fields := strings.Fields(lines.Text())
		if len(fields) == 2 && fields[0] == "module" {
			return strings.Trim(fields[1], `"`) == ModulePath, nil
		}
	}
	return false, lines.Err()
}

// ToolsDir returns the folder into which `make tools` links the built tools.
func ToolsDir(root string) string {
	return filepath.Join(root, ".tools", "bin")
}

// Tools returns the paths of the named tools in the checkout's tools folder,
// or one error naming every missing tool and the command that builds them.
func Tools(root string, names ...string) ([]string, error) {
	dir := ToolsDir(root)
	paths := make([]string, 0, len(names))
	var missing []string
	for _, name := range names {
		p := filepath.Join(dir, name)
		if !isExecutable(p) {
			missing = append(missing, name)
		}
		paths = append(paths, p)
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("%s not found in %s: run `make tools` in %s to build them",
			strings.Join(missing, ", "), dir, root)
	}
	return paths, nil
}

// isExecutable follows the symbolic links that `make tools` places in the tools folder.
func isExecutable(path string) bool {
	info, err := os.Stat(path)
	return err == nil && info.Mode().IsRegular() && info.Mode().Perm()&0o111 != 0
}
