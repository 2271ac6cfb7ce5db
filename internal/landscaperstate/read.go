package landscaperstate

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/dynamic"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
)

// Read reads the root Installation namespace/name from the host cluster
// and everything Landscaper made for it. It lists each of Landscaper's
// kinds in the namespace once (six requests in parallel) and then reads
// the Secrets deploy items exported into and Targets refer to (in
// parallel). Errors name the object and the field.
func Read(ctx context.Context, client dynamic.Interface, namespace, name string) (*Landscape, error) {
	h, err := listAll(ctx, client, namespace)
	if err != nil {
		return nil, err
	}
	root := h.installations[name]
	if root == nil {
		return nil, fmt.Errorf("Installation %s/%s not found", namespace, name)
	}
	if parent := root.Metadata.Labels[labelEncompassedBy]; parent != "" {
		return nil, fmt.Errorf("Installation %s/%s is a subinstallation of %q: read its root Installation", namespace, name, parent)
	}
	r := &reader{h: h, namespace: namespace, records: indexRecords(h), visited: map[string]bool{}}
	inst, err := r.installation(root, "")
	if err != nil {
		return nil, err
	}
	l := &Landscape{Root: inst}
	if l.Manifest, err = installationManifest(root); err != nil {
		return nil, err
	}
	objects, err := r.rootObjects(root)
	if err != nil {
		return nil, err
	}
	if err := r.readSecrets(ctx, client); err != nil {
		return nil, err
	}
	if l.ManifestObjects, err = objects(); err != nil {
		return nil, err
	}
	l.Objects = r.objects
	return l, nil
}

// reader assembles one landscape from a namespace's objects.
type reader struct {
	h         *hostObjects
	namespace string
	records   records
	objects   []deployer.ObjectRef
	// secretNames are the Secrets to read; deferred fill in what needs them.
	secretNames []string
	deferred    []func(map[string]secretData) error
	// visited are the Installations already in the tree: a cache or label
	// that leads back to one would otherwise recurse without end.
	visited map[string]bool
}

func (r *reader) needSecret(name string, fill func(map[string]secretData) error) {
	r.secretNames = append(r.secretNames, name)
	r.deferred = append(r.deferred, fill)
}

// readSecrets reads every Secret that was deferred, all at once, and
// fills in what needs them.
func (r *reader) readSecrets(ctx context.Context, client dynamic.Interface) error {
	secrets, err := secretReads{client: client, namespace: r.namespace}.get(ctx, r.secretNames)
	if err != nil {
		return err
	}
	for _, fill := range r.deferred {
		if err := fill(secrets); err != nil {
			return err
		}
	}
	return nil
}

func (r *reader) installation(w *wireInstallation, specName string) (*Installation, error) {
	ref := w.Metadata.ref("Installation")
	if r.visited[ref.Name] {
		return nil, fmt.Errorf("%s is its own ancestor (status.subInstCache or the %s label loops)", ref, labelEncompassedBy)
	}
	r.visited[ref.Name] = true
	r.objects = append(r.objects, ref)
	inst := &Installation{
		ObjectRef: ref, SpecName: specName,
		Phase: w.Status.Phase, JobID: w.Status.JobID, JobIDFinished: w.Status.JobIDFinished,
		ImportsHash: w.Status.ImportsHash, LastError: w.Status.LastError.text(), Spec: w.Spec,
	}
	rec := r.records.of(InstallationContext(w.Metadata.Name))
	inst.Imports, inst.Exports = rec.imports, rec.exports
	r.objects = append(r.objects, rec.objects...)
	inst.ImportedTargets = map[string][]api.Target{}
	for key, targets := range rec.importedTargets {
		for _, t := range targets {
			resolved, err := r.target(t)
			if err != nil {
				return nil, err
			}
			inst.ImportedTargets[key] = append(inst.ImportedTargets[key], *resolved)
			// A config in a Secret is read later: copy it in then.
			i := len(inst.ImportedTargets[key]) - 1
			r.deferred = append(r.deferred, func(map[string]secretData) error {
				inst.ImportedTargets[key][i] = *resolved
				return nil
			})
		}
	}
	exec, err := r.execution(w)
	if err != nil {
		return nil, err
	}
	inst.Execution = exec
	subs, err := r.subinstallations(w)
	if err != nil {
		return nil, err
	}
	for _, s := range subs {
		sub, err := r.installation(s.wire, s.specName)
		if err != nil {
			return nil, err
		}
		inst.Subinstallations = append(inst.Subinstallations, sub)
	}
	return inst, nil
}

type namedSub struct {
	specName string
	wire     *wireInstallation
}

// subinstallations finds an installation's children the way Landscaper
// does: through status.subInstCache, else by the encompassed-by label.
func (r *reader) subinstallations(w *wireInstallation) ([]namedSub, error) {
	var out []namedSub
	if c := w.Status.SubInstCache; c != nil {
		for i, p := range c.ActiveSubs {
			sub := r.h.installations[p.ObjectName]
			if sub == nil {
				return nil, fmt.Errorf("%s: status.subInstCache.activeSubs[%d]: Installation %q not found",
					w.Metadata.ref("Installation"), i, p.ObjectName)
			}
			out = append(out, namedSub{p.SpecName, sub})
		}
	} else {
		for _, sub := range r.h.installations {
			if sub.Metadata.Labels[labelEncompassedBy] == w.Metadata.Name {
				out = append(out, namedSub{sub.Metadata.Annotations[annSubinstallationName], sub})
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].specName < out[j].specName })
	return out, nil
}

// execution finds an installation's Execution: status.executionRef, else
// the Execution of the same name that the installation controls.
func (r *reader) execution(w *wireInstallation) (*Execution, error) {
	var e *wireExecution
	if ref := w.Status.ExecutionRef; ref != nil {
		if e = r.h.executions[ref.Name]; e == nil {
			return nil, fmt.Errorf("%s: status.executionRef: Execution %q not found", w.Metadata.ref("Installation"), ref.Name)
		}
	} else if c := r.h.executions[w.Metadata.Name]; c != nil && c.Metadata.controller("Installation") == w.Metadata.Name {
		e = c
	}
	if e == nil {
		return nil, nil
	}
	ref := e.Metadata.ref("Execution")
	r.objects = append(r.objects, ref)
	exec := &Execution{ObjectRef: ref, Phase: e.Status.Phase, JobID: e.Status.JobID, JobIDFinished: e.Status.JobIDFinished}
	if er := e.Status.ExportRef; er != nil {
		do := r.h.dataObjects[er.Name]
		if do == nil {
			return nil, fmt.Errorf("%s: status.exportRef: DataObject %q not found", ref, er.Name)
		}
		r.objects = append(r.objects, deployer.RefOf(do.Object))
		exec.Exports = dataOf(do)
	}
	templates, err := e.templates()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", ref, err)
	}
	items, orphaned := r.itemsOf(e)
	for i, t := range templates {
		w := items[t.Name]
		if w == nil {
			return nil, fmt.Errorf("%s: spec.deployItems[%d] (%q): no DeployItem of this Execution has it", ref, i, t.Name)
		}
		delete(items, t.Name)
		item, err := r.deployItem(w, t)
		if err != nil {
			return nil, err
		}
		exec.DeployItems = append(exec.DeployItems, item)
	}
	for _, w := range items {
		orphaned = append(orphaned, w)
	}
	for _, w := range orphaned {
		exec.Orphaned = append(exec.Orphaned, w.Metadata.Name)
		r.objects = append(r.objects, w.Metadata.ref("DeployItem"))
	}
	sort.Strings(exec.Orphaned)
	return exec, nil
}

// itemsOf returns an Execution's DeployItems by their template name, and
// those it orphaned: through status.deployItemCache, else by the
// managed-by label.
func (r *reader) itemsOf(e *wireExecution) (map[string]*wireDeployItem, []*wireDeployItem) {
	out := map[string]*wireDeployItem{}
	var orphaned []*wireDeployItem
	if c := e.Status.DeployItemCache; c != nil {
		for _, p := range c.ActiveDIs {
			if di := r.h.deployItems[p.ObjectName]; di != nil {
				out[p.SpecName] = di
			}
		}
		for _, name := range c.OrphanedDIs {
			if di := r.h.deployItems[name]; di != nil {
				orphaned = append(orphaned, di)
			}
		}
		return out, orphaned
	}
	for _, di := range r.h.deployItems {
		if di.Metadata.Labels[labelExecManagedBy] == e.Metadata.Name {
			out[di.Metadata.Labels[labelExecName]] = di
		}
	}
	return out, nil
}

func (r *reader) deployItem(w *wireDeployItem, t wireTemplate) (*DeployItem, error) {
	ref := w.Metadata.ref("DeployItem")
	r.objects = append(r.objects, ref)
	item := &DeployItem{
		ObjectRef: ref, Name: t.Name, Type: w.Spec.Type, Config: w.Spec.Config,
		DependsOn: t.DependsOn, Timeout: t.Timeout, UpdateOnChangeOnly: t.UpdateOnChangeOnly, Labels: t.Labels,
		Phase: w.Status.Phase, JobID: w.Status.JobID, JobIDFinished: w.Status.JobIDFinished,
		LastError: w.Status.LastError.text(), ProviderStatus: w.Status.ProviderStatus,
	}
	if w.Spec.Target != nil && w.Spec.Target.Name != "" {
		item.TargetName = w.Spec.Target.Name
		u := r.h.targets[w.Spec.Target.Name]
		if u == nil {
			return nil, fmt.Errorf("%s: spec.target: Target %q not found", ref, w.Spec.Target.Name)
		}
		tgt, err := r.target(u)
		if err != nil {
			return nil, err
		}
		item.Target = tgt
	}
	if err := deployed(item); err != nil {
		return nil, fmt.Errorf("%s: %w", ref, err)
	}
	if er := w.Status.ExportRef; er != nil {
		r.objects = append(r.objects, deployer.ObjectRef{APIVersion: "v1", Kind: "Secret", Namespace: r.namespace, Name: er.Name})
		r.needSecret(er.Name, func(s map[string]secretData) error {
			data := s[er.Name]
			if data == nil {
				return fmt.Errorf("%s: status.exportRef: Secret %q not found", ref, er.Name)
			}
			exports, err := yamlToJSON(data[exportSecretKey])
			if err != nil {
				return fmt.Errorf("%s: status.exportRef: Secret %q, key %s: %w", ref, er.Name, exportSecretKey, err)
			}
			item.Exports = exports
			return nil
		})
	}
	return item, nil
}

// exportSecretKey is the key of a deploy item's export Secret.
const exportSecretKey = "config"

// records are the DataObjects and Targets Landscaper wrote for each
// installation context: imports it recorded and exports it published.
type records map[string]*contextRecords

type contextRecords struct {
	imports         map[string]json.RawMessage
	exports         map[string]json.RawMessage
	importedTargets map[string][]*unstructured.Unstructured
	objects         []deployer.ObjectRef
}

func (rs records) of(ctx string) *contextRecords {
	if c := rs[ctx]; c != nil {
		return c
	}
	return &contextRecords{}
}

func (rs records) at(ctx string) *contextRecords {
	c := rs[ctx]
	if c == nil {
		c = &contextRecords{imports: map[string]json.RawMessage{}, exports: map[string]json.RawMessage{},
			importedTargets: map[string][]*unstructured.Unstructured{}}
		rs[ctx] = c
	}
	return c
}

// indexRecords sorts the namespace's DataObjects and Targets by the
// installation that recorded them (their data.landscaper.gardener.cloud
// labels).
func indexRecords(h *hostObjects) records {
	rs := records{}
	for _, do := range h.dataObjects {
		l := do.GetLabels()
		switch l[labelDOSourceType] {
		case "import":
			c := rs.at(l[labelDOContext])
			c.imports[l[labelDOKey]] = dataOf(do)
			c.objects = append(c.objects, deployer.RefOf(do.Object))
		case "export":
			c := rs.at(l[labelDOSource])
			c.exports[l[labelDOKey]] = dataOf(do)
			c.objects = append(c.objects, deployer.RefOf(do.Object))
		}
	}
	for _, t := range h.targets {
		l := t.GetLabels()
		switch l[labelDOSourceType] {
		case "import":
			c := rs.at(l[labelDOContext])
			c.importedTargets[l[labelDOKey]] = append(c.importedTargets[l[labelDOKey]], t)
			c.objects = append(c.objects, deployer.RefOf(t.Object))
		case "export":
			rs.at(l[labelDOSource]).objects = append(rs.at(l[labelDOSource]).objects, deployer.RefOf(t.Object))
		}
	}
	for _, c := range rs {
		for _, list := range c.importedTargets {
			sort.SliceStable(list, func(i, j int) bool { return targetIndex(list[i]) < targetIndex(list[j]) })
		}
	}
	return rs
}

func targetIndex(u *unstructured.Unstructured) int {
	i, err := strconv.Atoi(u.GetLabels()[labelDOIndex])
	if err != nil {
		return -1
	}
	return i
}

// dataOf returns a DataObject's data as JSON (null without data).
func dataOf(u *unstructured.Unstructured) json.RawMessage {
	v, ok := u.Object["data"]
	if !ok {
		return json.RawMessage("null")
	}
	raw, err := json.Marshal(v)
	if err != nil {
		return json.RawMessage("null")
	}
	return raw
}

// InstallationContext is the data context Landscaper keeps an
// installation's import records and its children's data in.
func InstallationContext(installationName string) string { return "Inst." + installationName }
