package landscaperfixture

import (
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// deployerVersion is the Landscaper release the deployers report.
const deployerVersion = "v0.152.0"

// rootImportTarget is the root's imported Target as Landscaper copies it
// into the root's context, where the subinstallation imports it from.
func (b *builder) targetSpec() object {
	return object{"type": "landscaper.gardener.cloud/kubernetes-cluster", "config": object{"kubeconfig": b.opts.Kubeconfig}}
}

// root is the root Installation with its Execution, deploy item, import
// records and exports.
func (b *builder) root() []*unstructured.Unstructured {
	ns := b.opts.Namespace
	inst := newObject("Installation", meta{name: RootName, namespace: ns, finalizers: true}, object{
		"spec": object{
			"blueprint": object{"inline": object{"filesystem": object{
				"blueprint.yaml": rootBlueprint,
				"web.yaml":       b.webTemplateText(),
			}}},
			"imports": object{
				"targets": []any{object{"name": "cluster", "target": TargetName}},
				"data": []any{
					object{"name": "namespace", "dataRef": NamespaceDataObject},
					object{"name": "settings", "dataRef": SettingsDataObject},
				},
			},
			"importDataMappings": object{"greeting": `(( settings.greeting " from the shop" ))`},
			"exports": object{"data": []any{
				object{"name": "url", "dataRef": URLDataObject},
				object{"name": "summary", "dataRef": SummaryDataObject},
			}},
			"exportDataMappings": object{"summary": `(( "shop at " url ))`},
		},
		"status": installationStatus(ns, RootName, "shop-imports-3c9f0a51", []any{object{"specName": "web", "objectName": SubName}}),
	})
	templates := []any{object{
		"name": "settings", "type": ManifestType,
		"target": object{"name": TargetName, "namespace": ns},
		"config": b.settingsConfig(),
	}}
	settingsExports := object{"greeting": MappedGreeting}
	url := "http://shop-web." + b.opts.TargetNamespace + ".svc"
	return []*unstructured.Unstructured{
		inst,
		b.importObject(RootName, "cluster", object{"kind": "Target", "spec": b.targetSpec()}),
		b.importObject(RootName, "namespace", b.opts.TargetNamespace),
		b.importObject(RootName, "settings", settingsData()),
		b.importObject(RootName, "greeting", MappedGreeting),
		b.execution(RootName, RootName, templates, []any{object{"specName": "settings", "objectName": SettingsItemName}}),
		b.executionExports(RootName, object{"settings": settingsExports}),
		b.deployItem(RootName, "settings", SettingsItemName, ManifestType, TargetName, nil, b.settingsConfig(),
			manifestStatus(b.settingsResources()), true),
		b.exportSecret(SettingsItemName, settingsExports),
		b.exportObject(RootName, "", URLDataObject, url),
		b.exportObject(RootName, "", SummaryDataObject, "shop at "+url),
	}
}

// web is the subinstallation with its Execution, two deploy items,
// import records and its export into the root's context.
func (b *builder) web() []*unstructured.Unstructured {
	ns := b.opts.Namespace
	parentCtx := installationContext(RootName)
	template := mustYAMLObject(b.webTemplateText())
	blueprint, _ := template["blueprint"].(object)
	inst := newObject("Installation", meta{
		name: SubName, namespace: ns, finalizers: true,
		labels:      map[string]string{labelEncompassedBy: RootName},
		annotations: map[string]string{annSubinstallation: "web"},
		owners:      []owner{{kind: "Installation", name: RootName, controller: true}},
	}, object{
		"spec": object{
			"context":   "default",
			"blueprint": object{"inline": object{"filesystem": blueprint["filesystem"]}},
			"imports":   template["imports"],
			"exports":   template["exports"],
		},
		"status": installationStatus(ns, SubName, "web-imports-8d21e7b4", nil),
	})
	target := dataObjectName(parentCtx, "cluster")
	templates := []any{
		object{"name": "app", "type": ManifestType, "target": object{"name": target, "namespace": ns}, "config": b.appConfig()},
		object{"name": "cache", "type": HelmType, "target": object{"name": target, "namespace": ns}, "config": b.cacheConfig(),
			"dependsOn": []any{"app"}},
	}
	return []*unstructured.Unstructured{
		inst,
		b.importObject(SubName, "cluster", object{"kind": "Target", "spec": b.targetSpec()}),
		b.importObject(SubName, "namespace", b.opts.TargetNamespace),
		b.importObject(SubName, "settings", settingsData()),
		b.execution(SubName, SubName, templates, []any{
			object{"specName": "app", "objectName": AppItemName},
			object{"specName": "cache", "objectName": CacheItemName},
		}),
		b.executionExports(SubName, object{"app": nil, "cache": nil}),
		b.deployItem(SubName, "app", AppItemName, ManifestType, target, nil, b.appConfig(), manifestStatus(b.appResources()), false),
		b.deployItem(SubName, "cache", CacheItemName, HelmType, target, []string{"app"}, b.cacheConfig(), helmStatus(b.cacheResources()), false),
		b.exportObject(SubName, parentCtx, "web-url", "http://shop-web."+b.opts.TargetNamespace+".svc"),
	}
}

func installationStatus(ns, name, importsHash string, subs []any) object {
	s := object{
		"observedGeneration":  1,
		"phase":               "Succeeded",
		"jobID":               JobID,
		"jobIDFinished":       JobID,
		"importsHash":         importsHash,
		"phaseTransitionTime": finishedAt,
		"executionRef":        object{"name": name, "namespace": ns},
		"conditions": []any{
			condition("ValidateImports", "ImportsValid", "All imports are valid", startedAt),
			condition("ReconcileExecution", "ExecutionDeployed", "Deployed execution item", startedAt),
			condition("CreateExports", "DataObjectsCreated", "DataObjects successfully created", finishedAt),
		},
		"transitionTimes": transitionTimes(),
	}
	if len(subs) > 0 {
		s["subInstCache"] = object{"activeSubs": subs}
	}
	return s
}

func transitionTimes() object {
	return object{"triggerTime": startedAt, "initTime": startedAt, "waitTime": startedAt, "finishedTime": finishedAt}
}

// execution is an installation's Execution (named like it), its deploy
// item templates compressed as Landscaper stores them.
func (b *builder) execution(installation, name string, templates, active []any) *unstructured.Unstructured {
	ns := b.opts.Namespace
	return newObject("Execution", meta{name: name, namespace: ns, finalizers: true,
		owners: []owner{{kind: "Installation", name: installation, controller: true}}}, object{
		"spec": object{"context": "default", "deployItemsCompressed": compressTemplates(templates)},
		"status": object{
			"observedGeneration": 1,
			"phase":              "Succeeded",
			"jobID":              JobID,
			"jobIDFinished":      JobID,
			"exportRef":          object{"name": dataObjectName("Exec."+name, ""), "namespace": ns},
			"deployItemCache":    object{"activeDIs": active},
			"conditions": []any{
				condition("ReconcileDeployItems", "DeployItemsReconciled", "All deploy items are reconciled", finishedAt),
			},
			"phaseTransitionTime": finishedAt,
			"transitionTimes":     transitionTimes(),
		},
	})
}

// deployItem is a DeployItem after its deployer finished it.
func (b *builder) deployItem(execution, specName, name, itemType, target string, dependsOn []string,
	config, providerStatus object, exports bool) *unstructured.Unstructured {
	ns := b.opts.Namespace
	deps := ""
	for i, d := range dependsOn {
		if i > 0 {
			deps += ","
		}
		deps += d
	}
	status := object{
		"phase":               "Succeeded",
		"observedGeneration":  1,
		"deployer":            object{"identity": deployerName(itemType) + "-default", "name": deployerName(itemType), "version": deployerVersion},
		"providerStatus":      providerStatus,
		"jobID":               JobID,
		"jobIDFinished":       JobID,
		"jobIDGenerationTime": startedAt,
		"lastReconcileTime":   finishedAt,
		"transitionTimes":     transitionTimes(),
	}
	if exports {
		status["exportRef"] = object{"name": name + "-export", "namespace": ns}
	}
	return newObject("DeployItem", meta{
		name: name, namespace: ns, finalizers: true,
		labels: map[string]string{labelExecManagedBy: execution, labelExecName: specName},
		annotations: map[string]string{
			annDependsOn: deps, annDeployerType: itemType, annDeployerTargetName: target, annReconcileTime: startedAt,
		},
		owners: []owner{{kind: "Execution", name: execution, controller: true}},
	}, object{
		"spec": object{
			"type":    itemType,
			"target":  object{"name": target, "namespace": ns},
			"context": "default",
			"config":  config,
		},
		"status": status,
	})
}

func deployerName(itemType string) string {
	if itemType == HelmType {
		return "helm"
	}
	return "manifest"
}
