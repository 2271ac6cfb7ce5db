{{ include "loop.tpl" . }}{{ include "loop.tpl" . }}
