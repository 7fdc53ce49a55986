{{/* Chart name, truncated to the 63 characters a label allows. */}}
{{- define "factsentry.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* Release-scoped name of every object. */}}
{{- define "factsentry.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{- define "factsentry.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{- end }}

{{- define "factsentry.labels" -}}
helm.sh/chart: {{ include "factsentry.chart" . }}
{{ include "factsentry.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/part-of: factsentry
{{- end }}

{{- define "factsentry.selectorLabels" -}}
app.kubernetes.io/name: {{ include "factsentry.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{/* Labels of one component; call with (dict "ctx" $ "component" "gateway"). */}}
{{- define "factsentry.componentLabels" -}}
{{ include "factsentry.labels" .ctx }}
app.kubernetes.io/component: {{ .component }}
{{- end }}

{{- define "factsentry.componentSelectorLabels" -}}
{{ include "factsentry.selectorLabels" .ctx }}
app.kubernetes.io/component: {{ .component }}
{{- end }}

{{- define "factsentry.serviceAccountName" -}}
{{- if .Values.serviceAccount.create }}
{{- default (include "factsentry.fullname" .) .Values.serviceAccount.name }}
{{- else }}
{{- default "default" .Values.serviceAccount.name }}
{{- end }}
{{- end }}

{{- define "factsentry.image" -}}
{{- printf "%s:%s" .Values.image.repository (default .Chart.AppVersion .Values.image.tag) }}
{{- end }}

{{/* Where the store is read from: the image, or the claim mounted at /var/lib/factsentry/kb-source. */}}
{{- define "factsentry.kbSource" -}}
{{- if .Values.knowledge.existingClaim }}
{{- printf "/var/lib/factsentry/kb-source/%s" .Values.knowledge.file }}
{{- else }}
{{- .Values.knowledge.path }}
{{- end }}
{{- end }}

{{/* The worker's copy of the store on a writable emptyDir (SQLite writes WAL files beside it). */}}
{{- define "factsentry.kbPath" -}}
{{- printf "/var/lib/factsentry/kb/%s" (base (include "factsentry.kbSource" .)) }}
{{- end }}

{{/* Environment shared by the gateway and the workers (bus.settings.BusSettings). */}}
{{- define "factsentry.env" -}}
- name: FACTSENTRY_KAFKA_BOOTSTRAP
  value: {{ .Values.kafka.bootstrap | quote }}
- name: FACTSENTRY_REDIS_URL
{{- if .Values.redis.existingSecret }}
  valueFrom:
    secretKeyRef:
      name: {{ .Values.redis.existingSecret }}
      key: {{ .Values.redis.existingSecretKey }}
{{- else }}
  value: {{ .Values.redis.url | quote }}
{{- end }}
- name: FACTSENTRY_RESULT_TTL_S
  value: {{ .Values.config.resultTtlSeconds | quote }}
- name: FACTSENTRY_REDIS_HEALTH_CHECK_S
  value: {{ .Values.redis.healthCheckSeconds | quote }}
- name: FACTSENTRY_REDIS_RETRIES
  value: {{ .Values.redis.retries | int | quote }}
- name: LITELLM_LOCAL_MODEL_COST_MAP
  value: "True"
{{- with .Values.tracing.otlpEndpoint }}
- name: OTEL_EXPORTER_OTLP_ENDPOINT
  value: {{ . | quote }}
{{- end }}
{{- with .Values.extraEnv }}
{{ toYaml . }}
{{- end }}
{{- end }}

{{/* Volumes shared by both pods: the config files and a writable /tmp. */}}
{{- define "factsentry.volumes" -}}
- name: config
  configMap:
    name: {{ include "factsentry.fullname" . }}-config
- name: tmp
  emptyDir: {}
{{- end }}

{{- define "factsentry.volumeMounts" -}}
- name: config
  mountPath: /etc/factsentry
  readOnly: true
- name: tmp
  mountPath: /tmp
{{- end }}

{{/* The one NetworkPolicy peer that may scrape metrics ports. */}}
{{- define "factsentry.prometheusPeer" -}}
{{- with .Values.networkPolicy.prometheus.namespaceSelector }}
namespaceSelector:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with .Values.networkPolicy.prometheus.podSelector }}
podSelector:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- end }}

{{/* Where the gateway reads the keys of auth.existingSecret (a directory mount: Secret updates arrive). */}}
{{- define "factsentry.keysDir" -}}
/etc/factsentry-auth
{{- end }}

{{/* Label of the Services Prometheus scrapes (one per component), so a ServiceMonitor selects only them. */}}
{{- define "factsentry.metricsLabel" -}}
factsentry/metrics: "true"
{{- end }}
