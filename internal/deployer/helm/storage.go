package helm

import (
	"errors"
	"fmt"
	"net/url"
	"strings"
	"sync"

	"helm.sh/helm/v3/pkg/release"
	"helm.sh/helm/v3/pkg/storage/driver"
)

// Where Helm keeps the records of releases. Helm's Secret driver keeps
// every revision of a release as one Secret in the release namespace:
// chart, values and rendered manifest, compressed, at most the 1 MiB a
// Secret may hold (record.go checks that before Helm starts). Helm's
// answer to bigger releases is its SQL driver, which keeps the same
// records in PostgreSQL tables; `helm list` with HELM_DRIVER=sql and the
// same connection string reads them. The records are Helm's own in
// either case: this package only picks the driver.
const (
	DriverSecret = "secret"
	DriverSQL    = "sql"
)

// SQLConnectionEnv is the variable Helm's CLI reads the SQL driver's
// connection string from; the provider reads it too when its
// configuration gives none.
const SQLConnectionEnv = "HELM_DRIVER_SQL_CONNECTION_STRING"

// Storage says which driver keeps the records of the releases this
// deployer installs.
type Storage struct {
	// Driver is DriverSecret (also when empty) or DriverSQL.
	Driver string
	// SQLConnection is DriverSQL's PostgreSQL connection string (a URL
	// or key=value pairs, as lib/pq reads them). It holds credentials:
	// never in a message (Secrets, scrub).
	SQLConnection string
}

// SQL reports whether releases are kept with Helm's SQL driver.
func (s Storage) SQL() bool { return s.Driver == DriverSQL }

// Check reports a storage that cannot be used.
func (s Storage) Check() error {
	switch s.Driver {
	case "", DriverSecret:
		if s.SQLConnection != "" {
			return fmt.Errorf("a SQL connection string is only used with driver = %q", DriverSQL)
		}
		return nil
	case DriverSQL:
		if strings.TrimSpace(s.SQLConnection) == "" {
			return fmt.Errorf("driver = %q needs a PostgreSQL connection string (sql_connection_string, or the environment variable %s)", DriverSQL, SQLConnectionEnv)
		}
		return nil
	}
	return fmt.Errorf("unknown driver %q: use %q or %q", s.Driver, DriverSecret, DriverSQL)
}

// Secrets are the strings a message must never show: the connection
// string, and its password alone, as URL or as key=value pairs, raw and
// decoded (an error of the URL parser quotes the URL; one of the server
// may quote a part).
func (s Storage) Secrets() []string {
	c := s.SQLConnection
	if c == "" {
		return nil
	}
	out := []string{c}
	if u, err := url.Parse(c); err == nil {
		if p, ok := u.User.Password(); ok {
			out = append(out, p, url.QueryEscape(p), url.PathEscape(p), u.User.String())
		}
		if p := u.Query().Get("password"); p != "" {
			out = append(out, p)
		}
	}
	for _, field := range strings.Fields(c) {
		if v, ok := strings.CutPrefix(field, "password="); ok {
			out = append(out, v, strings.Trim(v, "'"))
		}
	}
	return out
}

// scrub takes the storage's secrets out of err's message; the driver's
// errors are Helm's and lib/pq's, which know nothing of masking.
func (s Storage) scrub(err error) error {
	if err == nil || s.SQLConnection == "" {
		return err
	}
	msg := err.Error()
	secrets := s.Secrets()
	for _, v := range secrets {
		if len(v) >= 4 {
			msg = strings.ReplaceAll(msg, v, "***")
		}
	}
	if msg == err.Error() {
		return err
	}
	return scrubbed{msg: msg, err: err}
}

// scrubbed is an error whose message lost its secrets; errors.Is and As
// still see the cause (ErrReleaseNotFound).
type scrubbed struct {
	msg string
	err error
}

func (e scrubbed) Error() string { return e.msg }
func (e scrubbed) Unwrap() error { return e.err }

// sqlStores opens Helm's SQL driver once per release namespace and
// command: the driver keeps its namespace in a field that its queries
// read and its writes set, so one driver cannot serve two namespaces,
// and each holds a pool of connections that Helm never closes. One
// per namespace keeps the connections at one per namespace in use (the
// calls of one driver are serialized, lockedDriver), for as long as the
// provider process runs — one Terraform command.
type sqlStores struct {
	storage Storage
	// open serializes the drivers' creation: NewSQL runs sql-migrate,
	// which keeps global settings.
	open    sync.Mutex
	drivers map[string]*lockedDriver
}

// driver returns the namespace's driver, connecting on first use. A
// failed connection is not kept: the next call tries again.
func (s *sqlStores) driver(namespace string) (driver.Driver, error) {
	s.open.Lock()
	defer s.open.Unlock()
	if d, ok := s.drivers[namespace]; ok {
		return d, nil
	}
	if err := s.storage.Check(); err != nil {
		return nil, err
	}
	quiet := func(string, ...any) {}
	d, err := driver.NewSQL(s.storage.SQLConnection, quiet, namespace)
	if err != nil {
		return nil, s.storage.scrub(fmt.Errorf("connecting to the SQL storage of Helm releases (helm_storage): %w", err))
	}
	if s.drivers == nil {
		s.drivers = map[string]*lockedDriver{}
	}
	ld := &lockedDriver{d: d, storage: s.storage}
	s.drivers[namespace] = ld
	return ld, nil
}

// lockedDriver serializes the calls of one SQL driver (its writes set
// a field its reads use) and scrubs its errors.
type lockedDriver struct {
	mu      sync.Mutex
	d       driver.Driver
	storage Storage
}

var _ driver.Driver = (*lockedDriver)(nil)

func (l *lockedDriver) Name() string { return l.d.Name() }

func (l *lockedDriver) Create(key string, rls *release.Release) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.err(l.d.Create(key, rls))
}

func (l *lockedDriver) Update(key string, rls *release.Release) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.err(l.d.Update(key, rls))
}

func (l *lockedDriver) Delete(key string) (*release.Release, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	rel, err := l.d.Delete(key)
	return rel, l.err(err)
}

func (l *lockedDriver) Get(key string) (*release.Release, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	rel, err := l.d.Get(key)
	return rel, l.err(err)
}

func (l *lockedDriver) List(filter func(*release.Release) bool) ([]*release.Release, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	rels, err := l.d.List(filter)
	return rels, l.err(err)
}

func (l *lockedDriver) Query(labels map[string]string) ([]*release.Release, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	rels, err := l.d.Query(labels)
	return rels, l.err(err)
}

// err scrubs err; Helm's sentinels pass as they are.
func (l *lockedDriver) err(err error) error {
	if err == nil || errors.Is(err, driver.ErrReleaseNotFound) || errors.Is(err, driver.ErrReleaseExists) {
		return err
	}
	return l.storage.scrub(err)
}
