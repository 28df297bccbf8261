package apidoc

import (
	"net/http"

	"github.com/holon-actors/holon-actors/control"
)

// kindStatus is the HTTP status of every error kind of the control API,
// in the order the document lists them.
var kindStatus = []struct {
	kind   string
	status int
}{
	{control.KindBadRequest, http.StatusBadRequest},
	{control.KindUnauthorized, http.StatusUnauthorized},
	{control.KindToolProcess, http.StatusForbidden},
	{control.KindNotFound, http.StatusNotFound},
	{control.KindMethod, http.StatusMethodNotAllowed},
	{control.KindConflict, http.StatusConflict},
	{control.KindAgentStopped, http.StatusConflict},
	{control.KindResumeRequired, http.StatusConflict},
	{control.KindJournalQuarantined, http.StatusConflict},
	{control.KindTooLarge, http.StatusRequestEntityTooLarge},
	{control.KindInvalid, http.StatusUnprocessableEntity},
	{control.KindInvalidAnswer, http.StatusUnprocessableEntity},
	{control.KindBackpressure, http.StatusTooManyRequests},
	{control.KindInternal, http.StatusInternalServerError},
	{control.KindUnavailable, http.StatusServiceUnavailable},
}

// statusOf returns the status of kind, or 0 for an unknown kind.
func statusOf(kind string) int {
	for _, ks := range kindStatus {
		if ks.kind == kind {
			return ks.status
		}
	}
	return 0
}

// kindExamples are the message and hint of each kind's example.
var kindExamples = map[string][2]string{
	control.KindBadRequest:         {`agent id "a/b" is not valid`, "an agent id is 1 to 128 letters, digits, '.', '_' or '-'"},
	control.KindUnauthorized:       {"missing or wrong control token", "send Authorization: Bearer <control token>"},
	control.KindToolProcess:        {"the runtime's own tool processes may not use the operator's control API", "ask the operator"},
	control.KindNotFound:           {`no agent "researcher"`, "list agents with holon-actors agents list, or create it with holon-actors agents create researcher"},
	control.KindMethod:             {"PUT is not allowed on /agents/list", "allowed: GET"},
	control.KindConflict:           {`agent "researcher" already exists`, "pick another id, or use the existing agent"},
	control.KindAgentStopped:       {"agent researcher is stopped", "resume it first: holon-actors agents resume <id>"},
	control.KindResumeRequired:     {"agent researcher is paused", "resume it first: holon-actors agents resume <id>"},
	control.KindJournalQuarantined: {"agent researcher's journal is quarantined", "the other agents run; stop the runtime and run holon-actors doctor to see what is damaged"},
	control.KindTooLarge:           {"request body is larger than 1048576 bytes", "send at most 1 MiB"},
	control.KindInvalid:            {"text is empty or only whitespace", `send the prompt in "text"`},
	control.KindInvalidAnswer:      {`"maybe" is not one of the choices`, "answer with one of: yes, no"},
	control.KindBackpressure:       {"agent researcher's queue is full", "retry later"},
	control.KindInternal:           {"read journal: unexpected EOF", "see holon-actors daemon logs"},
	control.KindUnavailable:        {"the runtime is closed", "the runtime is shutting down; start it again"},
}

// routeKinds are the error kinds route r can answer, in kindStatus
// order: the ones of every route (of every operator route), of a route
// with path parameters, of a route with a body, and r.Errors.
func routeKinds(r control.Route) []string {
	set := map[string]bool{control.KindInternal: true, control.KindUnavailable: true, control.KindBackpressure: true}
	if !control.IsPublic(r.Pattern) {
		set[control.KindUnauthorized], set[control.KindToolProcess] = true, true
	}
	if len(r.Params) > 0 || hasPathParams(r.Pattern) {
		set[control.KindBadRequest], set[control.KindNotFound] = true, true
	}
	if r.Request != nil {
		set[control.KindBadRequest], set[control.KindTooLarge] = true, true
	}
	for _, k := range r.Errors {
		set[k] = true
	}
	var out []string
	for _, ks := range kindStatus {
		if set[ks.kind] {
			out = append(out, ks.kind)
		}
	}
	return out
}
