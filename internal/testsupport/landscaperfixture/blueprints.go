package landscaperfixture

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"strings"
	"time"
)

// rootBlueprint is the root Installation's inline blueprint: one manifest
// deploy item, the "web" subinstallation, and an export taken from it.
const rootBlueprint = `apiVersion: landscaper.gardener.cloud/v1alpha1
kind: Blueprint
jsonSchemaVersion: https://json-schema.org/draft/2019-09/schema
imports:
- name: cluster
  targetType: landscaper.gardener.cloud/kubernetes-cluster
- name: namespace
  schema: {type: string}
- name: settings
  schema:
    type: object
    properties:
      greeting: {type: string}
      replicas: {type: integer}
- name: greeting
  schema: {type: string}
exports:
- name: url
  schema: {type: string}
deployExecutions:
- name: default
  type: GoTemplate
  template: |
    deployItems:
    - name: settings
      type: landscaper.gardener.cloud/kubernetes-manifest
      target: {import: cluster}
      config:
        apiVersion: manifest.deployer.landscaper.gardener.cloud/v1alpha2
        kind: ProviderConfiguration
        updateStrategy: update
        manifests:
        - policy: manage
          manifest:
            apiVersion: v1
            kind: ConfigMap
            metadata:
              name: shop-settings
              namespace: {{ .imports.namespace }}
            data:
              greeting: {{ .imports.greeting | quote }}
              replicas: {{ .imports.settings.replicas | quote }}
        exports:
          exports:
          - key: greeting
            jsonPath: .data.greeting
            fromResource: {apiVersion: v1, kind: ConfigMap, name: shop-settings, namespace: {{ .imports.namespace }}}
exportExecutions:
- name: url
  type: GoTemplate
  template: |
    exports:
      url: {{ index .dataobjects "web-url" | quote }}
subinstallations:
- file: /web.yaml
`

// webTemplate is the subinstallation's InstallationTemplate, with its
// own inline blueprint: a Deployment through the manifest deployer and a
// Helm chart (archive) after it. CHART is replaced by the archive.
const webTemplate = `apiVersion: landscaper.gardener.cloud/v1alpha1
kind: InstallationTemplate
name: web
blueprint:
  filesystem:
    blueprint.yaml: |
      apiVersion: landscaper.gardener.cloud/v1alpha1
      kind: Blueprint
      jsonSchemaVersion: https://json-schema.org/draft/2019-09/schema
      imports:
      - name: cluster
        targetType: landscaper.gardener.cloud/kubernetes-cluster
      - name: namespace
        schema: {type: string}
      - name: settings
        schema: {type: object}
      exports:
      - name: url
        schema: {type: string}
      deployExecutions:
      - name: default
        type: GoTemplate
        template: |
          deployItems:
          - name: app
            type: landscaper.gardener.cloud/kubernetes-manifest
            target: {import: cluster}
            config:
              apiVersion: manifest.deployer.landscaper.gardener.cloud/v1alpha2
              kind: ProviderConfiguration
              updateStrategy: update
              manifests:
              - policy: manage
                manifest:
                  apiVersion: apps/v1
                  kind: Deployment
                  metadata:
                    name: shop-web
                    namespace: {{ .imports.namespace }}
                  spec:
                    replicas: {{ .imports.settings.replicas }}
                    selector:
                      matchLabels: {app: shop-web}
                    template:
                      metadata:
                        labels: {app: shop-web}
                      spec:
                        containers:
                        - name: web
                          image: registry.example/shop/web:1.4.2
          - name: cache
            type: landscaper.gardener.cloud/helm
            target: {import: cluster}
            dependsOn: [app]
            config:
              apiVersion: helm.deployer.landscaper.gardener.cloud/v1alpha1
              kind: ProviderConfiguration
              name: shop-cache
              namespace: {{ .imports.namespace }}
              createNamespace: false
              chart:
                archive:
                  raw: CHART
              values:
                message: {{ .imports.settings.greeting | quote }}
      exportExecutions:
      - name: url
        type: GoTemplate
        template: |
          exports:
            url: {{ printf "http://shop-web.%s.svc" .imports.namespace | quote }}
imports:
  targets:
  - {name: cluster, target: cluster}
  data:
  - {name: namespace, dataRef: namespace}
  - {name: settings, dataRef: settings}
exports:
  data:
  - {name: url, dataRef: web-url}
`

// chartFiles is the Helm chart of the "cache" deploy item: a ConfigMap
// and a Deployment, both named after the release.
var chartFiles = []struct{ name, text string }{
	{"shop-cache/Chart.yaml", "apiVersion: v2\nname: shop-cache\nversion: 0.3.1\nappVersion: \"0.3.1\"\n"},
	{"shop-cache/values.yaml", "message: hello\n"},
	{"shop-cache/templates/configmap.yaml", `apiVersion: v1
kind: ConfigMap
metadata:
  name: {{ .Release.Name }}-config
data:
  message: {{ .Values.message | quote }}
`},
	{"shop-cache/templates/deployment.yaml", `apiVersion: apps/v1
kind: Deployment
metadata:
  name: {{ .Release.Name }}
spec:
  replicas: 1
  selector:
    matchLabels: {app: {{ .Release.Name }}}
  template:
    metadata:
      labels: {app: {{ .Release.Name }}}
    spec:
      containers:
      - name: cache
        image: registry.example/shop/cache:0.3.1
`},
}

// ChartArchive returns the chart as a .tgz, the same bytes every time.
func ChartArchive() []byte {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.ModTime = time.Unix(0, 0)
	tw := tar.NewWriter(zw)
	for _, f := range chartFiles {
		hdr := &tar.Header{Name: f.name, Mode: 0o644, Size: int64(len(f.text)), ModTime: time.Unix(0, 0), Typeflag: tar.TypeReg}
		if err := tw.WriteHeader(hdr); err != nil {
			panic(err)
		}
		if _, err := tw.Write([]byte(f.text)); err != nil {
			panic(err)
		}
	}
	if err := tw.Close(); err != nil {
		panic(err)
	}
	if err := zw.Close(); err != nil {
		panic(err)
	}
	return buf.Bytes()
}

func chartBase64() string { return base64.StdEncoding.EncodeToString(ChartArchive()) }

func (b *builder) webTemplateText() string {
	text := strings.Replace(webTemplate, "CHART", chartBase64(), 1)
	if b.opts.HelmManifests {
		const line = "              createNamespace: false\n"
		text = strings.Replace(text, line, line+"              helmDeployment: false\n", 1)
	}
	return text
}
