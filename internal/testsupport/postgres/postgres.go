// Package postgres runs a PostgreSQL server on loopback for one test: the
// server of Debian's packages that `make tools` unpacks into the tool cache
// (tools/testenv/postgres/unpack.sh), with a fresh cluster in a temporary
// folder, trust authentication and no durability (it lives for one test).
//
//	conn := postgres.Start(t)   // postgres://postgres@127.0.0.1:<port>/postgres?sslmode=disable
//
// The server is stopped when the test ends. Without the test environment
// (testgate) the test is skipped; with it, missing programs fail the test.
package postgres

import (
	"errors"
	"fmt"
	"io/fs"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/testsupport/checkout"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/testsupport/daemon"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/testsupport/testgate"
)

// The programs in the checkout's tools folder.
const (
	InitDB = "initdb"
	Server = "postgres"
)

// startTimeout bounds initdb plus the server's start; both take a second
// or two, more on a loaded 2-core machine.
const startTimeout = 60 * time.Second

// Start creates a database cluster, runs the server for t and returns its
// connection string once the server accepts connections.
func Start(t testing.TB) string {
	t.Helper()
	testgate.Require(t, "PostgreSQL unpacked by make tools")
	root, err := checkout.Root()
	if err != nil {
		t.Fatalf("postgres: %v", err)
	}
	bins, err := checkout.Tools(root, InitDB, Server)
	if err != nil {
		t.Fatalf("postgres: %v", err)
	}
	cred, err := serverUser()
	if err != nil {
		t.Fatalf("postgres: %v", err)
	}
	// Not t.TempDir: its parents are private to this user, and the server
	// may run as another one.
	dir, err := os.MkdirTemp("", "landscaper-postgres-")
	if err != nil {
		t.Fatalf("postgres: %v", err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	if cred != nil {
		if err := os.Chown(dir, int(cred.Uid), int(cred.Gid)); err != nil {
			t.Fatalf("postgres: %v", err)
		}
	}
	if cred != nil {
		// The tool cache is usually under root's private home: give the
		// server user its own view of the programs.
		if bins, err = linkTools(bins, filepath.Join(dir, "bin")); err != nil {
			t.Fatalf("postgres: %v", err)
		}
	}
	data := filepath.Join(dir, "data")
	initdb := exec.Command(bins[0], "-D", data, "-U", "postgres", "--auth=trust", "--encoding=UTF8", "--locale=C", "--no-sync")
	initdb.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
	if out, err := initdb.CombinedOutput(); err != nil {
		t.Fatalf("postgres: initdb: %v\n%s", err, out)
	}
	for attempt := 1; ; attempt++ {
		port, err := freePort()
		if err != nil {
			t.Fatalf("postgres: %v", err)
		}
		err = serve(t, bins[1], data, dir, port, cred)
		if err == nil {
			return fmt.Sprintf("postgres://postgres@127.0.0.1:%d/postgres?sslmode=disable", port)
		}
		if !errors.Is(err, daemon.ErrAddrInUse) || attempt == 3 {
			t.Fatalf("postgres: %v", err)
		}
	}
}

// serverUser is the user the server runs as: PostgreSQL refuses to run as
// root, so a root test (CI) runs it as nobody; nil means this process's user.
func serverUser() (*syscall.Credential, error) {
	if os.Geteuid() != 0 {
		return nil, nil
	}
	u, err := user.Lookup("nobody")
	if err != nil {
		return nil, fmt.Errorf("running as root, the server needs the user nobody: %w", err)
	}
	uid, _ := strconv.ParseUint(u.Uid, 10, 32)
	gid, _ := strconv.ParseUint(u.Gid, 10, 32)
	return &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}, nil
}

// serve starts the server and returns once its log says it accepts
// connections, or with the reason it exited. It stops the server at t's end.
func serve(t testing.TB, bin, data, socketDir string, port int, cred *syscall.Credential) error {
	cmd := exec.Command(bin, "-D", data, "-h", "127.0.0.1", "-p", strconv.Itoa(port), "-k", socketDir,
		"-c", "fsync=off", "-c", "full_page_writes=off", "-c", "synchronous_commit=off")
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
	return daemon.Start(t, cmd, daemon.Ready{
		Line: "database system is ready to accept connections", InUse: "Address already in use", Timeout: startTimeout,
		// SIGINT is PostgreSQL's fast shutdown: sessions are ended, nothing kept.
		Stop: func(p *os.Process) error { return p.Signal(os.Interrupt) },
	})
}

// linkTools places the cache folder of the programs (wrappers and the
// unpacked packages) under dst, as hard links where the filesystem allows,
// and returns the programs' paths there.
func linkTools(bins []string, dst string) ([]string, error) {
	resolved, err := filepath.EvalSymlinks(bins[0])
	if err != nil {
		return nil, err
	}
	src := filepath.Dir(resolved)
	err = filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		info, err := d.Info()
		if err != nil {
			return err
		}
		switch {
		case d.IsDir():
			return os.MkdirAll(target, 0o755)
		case info.Mode()&fs.ModeSymlink != 0:
			link, err := os.Readlink(p)
			if err != nil {
				return err
			}
			return os.Symlink(link, target)
		}
		if os.Link(p, target) == nil {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, b, info.Mode().Perm())
	})
	if err != nil {
		return nil, fmt.Errorf("linking %s for the server user: %w", src, err)
	}
	out := make([]string, len(bins))
	for i, b := range bins {
		out[i] = filepath.Join(dst, filepath.Base(b))
	}
	return out, nil
}

// freePort returns a loopback port that was free a moment ago.
func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	addr, ok := l.Addr().(*net.TCPAddr)
	if !ok {
		return 0, fmt.Errorf("listener address %v is not TCP", l.Addr())
	}
	return addr.Port, nil
}
