{{/* The release's name for every object, at most 63 characters. */}}
{{- define "quire.fullname" -}}
{{- if contains .Chart.Name .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name .Chart.Name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{- define "quire.selectorLabels" -}}
app.kubernetes.io/name: {{ .Chart.Name }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end -}}

{{- define "quire.labels" -}}
{{ include "quire.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version }}
{{- end -}}

{{/* http or https, by whether TLS is configured. */}}
{{- define "quire.scheme" -}}
{{- if .Values.tls.secretName }}https{{ else }}http{{ end -}}
{{- end -}}

{{/* Container memory: the node's one budget. */}}
{{- define "quire.memoryMiB" -}}
{{- add .Values.memory.heapMiB .Values.memory.viewMiB .Values.memory.overheadMiB -}}
{{- end -}}

{{/* Keys of the node's secret files that are set, from values or listed for an existing Secret. */}}
{{- define "quire.secretKeys" -}}
{{- $keys := list -}}
{{- if .Values.auth.existingSecret -}}
{{- $keys = .Values.auth.existingSecretKeys -}}
{{- else -}}
{{- if .Values.auth.users }}{{ $keys = append $keys "users" }}{{ end -}}
{{- if .Values.auth.jwtPublicKey }}{{ $keys = append $keys "jwt-public-key.pem" }}{{ end -}}
{{- if .Values.auth.jwtHmacSecret }}{{ $keys = append $keys "jwt-hmac-secret" }}{{ end -}}
{{- if .Values.kms.localSecret }}{{ $keys = append $keys "kms-local-secret" }}{{ end -}}
{{- if .Values.auth.snapshotAuthorization }}{{ $keys = append $keys "snapshot-authorization" }}{{ end -}}
{{- if .Values.schemaResources.authorization }}{{ $keys = append $keys "schema-resources-authorization" }}{{ end -}}
{{- end -}}
{{- join "," $keys -}}
{{- end -}}

{{- define "quire.secretName" -}}
{{- default (printf "%s-secrets" (include "quire.fullname" .)) .Values.auth.existingSecret -}}
{{- end -}}

{{/* Every node's URL through the headless Service, comma-separated (QUIRE_PEER_NODES). */}}
{{- define "quire.peers" -}}
{{- $full := include "quire.fullname" . -}}
{{- $n := int (ternary .Values.autoscaling.minReplicas .Values.replicaCount .Values.autoscaling.enabled) -}}
{{- $urls := list -}}
{{- range $i := until $n -}}
{{- $urls = append $urls (printf "%s://%s-%d.%s-headless.%s.svc.%s:%d" (include "quire.scheme" $) $full $i $full $.Release.Namespace $.Values.clusterDomain (int $.Values.service.port)) -}}
{{- end -}}
{{- join "," $urls -}}
{{- end -}}
