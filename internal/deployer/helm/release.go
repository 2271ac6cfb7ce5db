package helm

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"helm.sh/helm/v3/pkg/action"
	"helm.sh/helm/v3/pkg/chart"
	"helm.sh/helm/v3/pkg/kube"
	"helm.sh/helm/v3/pkg/release"
	"helm.sh/helm/v3/pkg/storage"
	"helm.sh/helm/v3/pkg/storage/driver"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer/manifest"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/failure"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/target"
)

// maxHistory is how many revisions of a release an upgrade keeps, as
// Landscaper's Helm deployer keeps them (its MaxHistory), so a release
// taken over from Landscaper keeps its rollback revisions. Older ones are
// pruned on upgrade.
const maxHistory = 10

// defaultActionTimeout bounds Helm's own waits when neither the item nor
// the action configuration sets a timeout.
const defaultActionTimeout = 5 * time.Minute

// releaser runs Helm actions on one release.
type releaser struct {
	cfg       *action.Configuration
	name      string
	namespace string
	owner     releaseOwner
	// inSecrets is the release namespace's Secret storage when cfg keeps
	// releases elsewhere (the SQL driver), nil otherwise: a release of
	// the name kept there is not installed a second time (deploy).
	inSecrets *storage.Storage
}

// releaser returns the releaser of one release, whose records are kept
// where d's storage says (storage.go).
func (d *Deployer) releaser(c *target.Clients, name, namespace string, owner releaseOwner) (*releaser, error) {
	cfg := new(action.Configuration)
	quiet := func(string, ...any) {}
	// The Secret driver first, always: Init sets up the Kubernetes
	// client, and its storage contacts nothing until it is used.
	if err := cfg.Init(&clientGetter{clients: c, namespace: namespace}, namespace, DriverSecret, quiet); err != nil {
		return nil, fmt.Errorf("release %s/%s: helm: %w", namespace, name, err)
	}
	cfg.KubeClient = withCRDWait(cfg.KubeClient) // crdwait.go
	r := &releaser{cfg: cfg, name: name, namespace: namespace, owner: owner}
	if d.sql == nil {
		return r, nil
	}
	sqlDriver, err := d.sql.driver(namespace)
	if err != nil {
		return nil, fmt.Errorf("release %s/%s: %w", namespace, name, err)
	}
	r.inSecrets = cfg.Releases
	cfg.Releases = storage.Init(sqlDriver)
	cfg.Releases.Log = quiet
	return r, nil
}

// last returns the newest revision of the release, nil if there is none.
func (r *releaser) last() (*release.Release, error) {
	rel, err := r.cfg.Releases.Last(r.name)
	if errors.Is(err, driver.ErrReleaseNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("release %s/%s: reading history: %w", r.namespace, r.name, err)
	}
	return rel, nil
}

// deploy installs or upgrades the release. A release that an interrupted
// run left pending is recovered first, so the result is never Helm's
// "cannot re-use a name that is still in use" or "another operation is in
// progress": a pending install is uninstalled and installed again (it
// never worked, so nothing is lost); a pending upgrade or rollback is
// marked failed, and the upgrade that follows merges from the last
// deployed revision, which is what `helm rollback` + `helm upgrade`
// would achieve with one write less. last is the newest revision as the
// caller just read it under the release lock (nil: none).
func (r *releaser) deploy(last *release.Release, ch *chart.Chart, vals map[string]any, cfg *ProviderConfiguration, timeout time.Duration) (*release.Release, error) {
	opts := DeploymentConfig{}
	if cfg.HelmDeploymentConfig != nil {
		opts = *cfg.HelmDeploymentConfig
	}
	if last != nil && last.Info.Status != release.StatusUninstalled {
		if err := r.owner.claim(last); err != nil {
			return nil, err
		}
	}
	if last != nil {
		switch last.Info.Status {
		case release.StatusPendingInstall, release.StatusUninstalling:
			if err := r.uninstall(opts.Uninstall, timeout, true); err != nil {
				return nil, fmt.Errorf("recovering from an interrupted install: %w", err)
			}
			last = nil
		case release.StatusPendingUpgrade, release.StatusPendingRollback:
			last.SetStatus(release.StatusFailed, "interrupted; recovered by the next apply")
			if err := r.cfg.Releases.Update(last); err != nil {
				return nil, fmt.Errorf("release %s/%s: recovering from an interrupted upgrade: %w", r.namespace, r.name, err)
			}
		case release.StatusUninstalled:
			last = nil
		}
	}
	if last == nil {
		if err := r.notInSecrets(); err != nil {
			return nil, err
		}
		install := action.NewInstall(r.cfg)
		install.ReleaseName, install.Namespace = r.name, r.namespace
		install.CreateNamespace = cfg.CreateNamespace
		install.Atomic, install.Wait, install.Force = opts.Install.Atomic, opts.Install.Wait, opts.Install.Force
		install.SkipSchemaValidation, install.TakeOwnership = opts.Install.SkipSchemaValidation, opts.Install.TakeOwnership
		install.Timeout = opts.Install.timeout(timeout)
		install.Replace = true // only reached when no live release has the name
		install.Labels = r.owner.labels()
		install.PostRenderer = r.owner.stamp()
		rel, err := install.Run(ch, vals)
		return rel, r.classify("install", err)
	}
	upgrade := action.NewUpgrade(r.cfg)
	upgrade.Namespace = r.namespace
	upgrade.MaxHistory = maxHistory
	upgrade.Labels = r.owner.labels()
	upgrade.PostRenderer = r.owner.stamp()
	upgrade.Atomic, upgrade.Wait, upgrade.Force = opts.Upgrade.Atomic, opts.Upgrade.Wait, opts.Upgrade.Force
	upgrade.SkipSchemaValidation, upgrade.TakeOwnership = opts.Upgrade.SkipSchemaValidation, opts.Upgrade.TakeOwnership
	upgrade.Timeout = opts.Upgrade.timeout(timeout)
	rel, err := upgrade.Run(r.name, ch, vals)
	return rel, r.classify("upgrade", err)
}

// notInSecrets refuses a fresh install into the SQL storage of a release
// whose records Helm's Secret driver keeps (installed before helm_storage
// chose SQL, or by someone else): Helm would install the objects a second
// time under a record that `helm list` without the SQL driver never
// shows, and the Secret record would outlive the release.
func (r *releaser) notInSecrets() error {
	if r.inSecrets == nil {
		return nil
	}
	rel, err := r.inSecrets.Last(r.name)
	switch {
	case errors.Is(err, driver.ErrReleaseNotFound):
		return nil
	case err != nil:
		return fmt.Errorf("release %s/%s: reading its records in Secrets: %w", r.namespace, r.name, err)
	case rel.Info != nil && rel.Info.Status == release.StatusUninstalled:
		return nil
	}
	return failure.Terminalf("ReleaseInOtherStorage", "release %s/%s is kept in Secrets (Helm's Secret driver, revision %d), while helm_storage keeps releases "+
		"with the SQL driver; it is left untouched: uninstall it (helm uninstall %s -n %s), or keep it with driver = %q",
		r.namespace, r.name, rel.Version, r.name, r.namespace, DriverSecret)
}

// uninstall removes the release; a missing release is fine. With wait,
// Helm waits until its objects are gone, re-reading them every 2 s;
// without, the caller waits (Delete follows them with watches).
func (r *releaser) uninstall(opts UninstallOptions, timeout time.Duration, wait bool) error {
	u := action.NewUninstall(r.cfg)
	u.IgnoreNotFound = true
	u.Wait = wait
	u.Timeout = opts.timeout(timeout)
	_, err := u.Run(r.name)
	if err != nil && !errors.Is(err, driver.ErrReleaseNotFound) {
		return r.classify("uninstall", err)
	}
	return nil
}

// deletedByUninstall returns the objects an uninstall of the newest
// revision deletes: its manifest without what Helm keeps
// (helm.sh/resource-policy: keep).
func (r *releaser) deletedByUninstall() ([]*manifest.Desired, error) {
	last, err := r.last()
	if err != nil || last == nil {
		return nil, err
	}
	objs, err := releaseObjects(last)
	if err != nil {
		return nil, err
	}
	out := objs[:0]
	for _, d := range objs {
		if d.Object.GetAnnotations()[kube.ResourcePolicyAnno] != kube.KeepPolicy {
			out = append(out, d)
		}
	}
	return out, nil
}

// classify names the release; chart rendering and validation errors are
// terminal, everything else (API errors, waits) may heal.
func (r *releaser) classify(op string, err error) error {
	if err == nil {
		return nil
	}
	wrapped := fmt.Errorf("release %s/%s: %s: %w", r.namespace, r.name, op, err)
	msg := err.Error()
	for _, terminal := range []string{"parse error", "render error", "execution error", "values don't meet the specifications", "unable to build kubernetes objects", "invalid release name"} {
		if strings.Contains(msg, terminal) {
			return failure.NewTerminal("InvalidChart", wrapped)
		}
	}
	return wrapped
}

// releaseLocks serializes the Helm actions on one release. An action keeps
// running after its caller's context ends (Helm cannot be canceled half
// way without leaving a pending release), so the next Apply or Delete of
// the same release waits for it instead of racing it.
type releaseLocks struct {
	mu    sync.Mutex
	locks map[string]chan struct{}
}

func (l *releaseLocks) lock(ctx context.Context, key string) (unlock func(), err error) {
	l.mu.Lock()
	if l.locks == nil {
		l.locks = map[string]chan struct{}{}
	}
	ch, ok := l.locks[key]
	if !ok {
		ch = make(chan struct{}, 1)
		l.locks[key] = ch
	}
	l.mu.Unlock()
	select {
	case ch <- struct{}{}:
		return func() { <-ch }, nil
	case <-ctx.Done():
		return nil, fmt.Errorf("waiting for a previous Helm action on release %s to finish: %w", key, ctx.Err())
	}
}

// runLocked runs fn under the release lock in the background and returns
// its result, or ctx's error as soon as ctx ends; fn then still finishes
// and releases the lock.
func runLocked[T any](ctx context.Context, locks *releaseLocks, key string, fn func() (T, error)) (T, error) {
	var zero T
	unlock, err := locks.lock(ctx, key)
	if err != nil {
		return zero, err
	}
	type result struct {
		v   T
		err error
	}
	done := make(chan result, 1)
	go func() {
		defer unlock()
		v, err := fn()
		done <- result{v, err}
	}()
	select {
	case res := <-done:
		return res.v, res.err
	case <-ctx.Done():
		return zero, fmt.Errorf("release %s: %w (the Helm action continues in the background; the next apply waits for it)", key, ctx.Err())
	}
}

// remaining is the time left until ctx's deadline, or fallback.
func remaining(ctx context.Context, fallback time.Duration) time.Duration {
	if deadline, ok := ctx.Deadline(); ok {
		if left := time.Until(deadline); left > 0 {
			return left
		}
		return time.Millisecond
	}
	return fallback
}
