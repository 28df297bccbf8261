package control

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/holon-actors/holon-actors/actors"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/persistence"
)

// Error is the body of every failed request, under "error": a stable kind,
// what went wrong, and what to do about it.
type Error struct {
	Status  int    `json:"-"`
	Kind    string `json:"kind"`
	Message string `json:"message"`
	Hint    string `json:"hint,omitempty"`
	// ValidChoices lists the values a suspension accepts, on an
	// invalid_answer error for a choice or confirm question.
	ValidChoices []string `json:"valid_choices,omitempty"`
}

func (e *Error) Error() string {
	if e.Hint == "" {
		return e.Message
	}
	return e.Message + " (" + e.Hint + ")"
}

// The error kinds of the control API.
const (
	KindBadRequest     = "bad_request"
	KindUnauthorized   = "unauthorized"
	KindToolProcess    = "tool_process"
	KindNotFound       = "not_found"
	KindConflict       = "conflict"
	KindTooLarge       = "request_too_large"
	KindInvalid        = "invalid_input"
	KindBackpressure   = "backpressure"
	KindUnavailable    = "unavailable"
	KindInternal       = "internal"
	KindMethod         = "method_not_allowed"
	KindAgentStopped   = "agent_stopped"
	KindResumeRequired = "resume_required"
	KindInvalidAnswer  = "invalid_answer"
	// KindJournalQuarantined: the agent's journal is damaged; it is not
	// resumed until the data is restored.
	KindJournalQuarantined = "journal_quarantined"
)

func errorf(status int, kind, hint, format string, args ...any) *Error {
	return &Error{Status: status, Kind: kind, Message: fmt.Sprintf(format, args...), Hint: hint}
}

// runtimeError maps an error from the runtime or the store to an API error.
func runtimeError(err error) *Error {
	var e *Error
	var invalid *messages.InvalidAnswerError
	switch {
	case errors.As(err, &e):
		return e
	case errors.As(err, &invalid):
		return invalidAnswer(invalid)
	case errors.Is(err, actors.ErrSuspensionNotFound):
		return errorf(http.StatusNotFound, KindNotFound, listSuspensionsHint, "no such suspension")
	case errors.Is(err, actors.ErrNotSuspended), errors.Is(err, actors.ErrSuspensionClosed):
		return errorf(http.StatusConflict, KindConflict, listSuspensionsHint, "%v", err)
	case errors.Is(err, actors.ErrJournalQuarantined):
		return errorf(http.StatusConflict, KindJournalQuarantined,
			"the other agents run; stop the runtime and run holon-actors doctor to see what is damaged", "%v", err)
	case errors.Is(err, actors.ErrAgentStopped):
		return errorf(http.StatusConflict, KindAgentStopped, "resume it first: holon-actors agents resume <id>", "%v", err)
	case errors.Is(err, actors.ErrResumeRequired), errors.Is(err, actors.ErrRetryPaused):
		return errorf(http.StatusConflict, KindResumeRequired, "resume it first: holon-actors agents resume <id>", "%v", err)
	case errors.Is(err, actors.ErrAgentDeleted):
		return errorf(http.StatusConflict, KindConflict, "pick another id", "%v", err)
	case errors.Is(err, actors.ErrQueueFull):
		return errorf(http.StatusTooManyRequests, KindBackpressure, "retry later", "%v", err)
	case errors.Is(err, messages.ErrInvalidEnvelope), errors.Is(err, messages.ErrUnknownValue):
		return errorf(http.StatusUnprocessableEntity, KindInvalid, "fix the named field and send again", "%v", err)
	case errors.Is(err, actors.ErrRuntimeClosed):
		return errorf(http.StatusServiceUnavailable, KindUnavailable, "the runtime is shutting down; start it again", "%v", err)
	case errors.Is(err, persistence.ErrDiskFull):
		return errorf(http.StatusServiceUnavailable, KindUnavailable, "free disk space under HOLON_HOME", "%v", err)
	case errors.Is(err, persistence.ErrFailed), errors.Is(err, persistence.ErrClosed):
		return errorf(http.StatusServiceUnavailable, KindUnavailable, "see holon-actors daemon logs", "%v", err)
	case errors.Is(err, context.DeadlineExceeded):
		return errorf(http.StatusServiceUnavailable, KindUnavailable, "the agent did not answer in time; retry", "%v", err)
	default:
		return errorf(http.StatusInternalServerError, KindInternal, "see holon-actors daemon logs", "%v", err)
	}
}

// listSuspensionsHint is the hint of the suspension errors.
const listSuspensionsHint = "list the open ones with holon-actors suspensions list"

// suspensionError maps an error answering or cancelling suspension sid of
// agent id, naming both.
func suspensionError(err error, id, sid string) *Error {
	switch {
	case errors.Is(err, actors.ErrSuspensionNotFound):
		return errorf(http.StatusNotFound, KindNotFound, "list its suspensions with holon-actors suspensions list --all --agent "+id,
			"agent %q has no suspension %q", id, sid)
	case errors.Is(err, actors.ErrNotSuspended), errors.Is(err, actors.ErrSuspensionClosed):
		return errorf(http.StatusConflict, KindConflict, listSuspensionsHint, "suspension %q of agent %q: %v", sid, id, err)
	}
	return runtimeError(err)
}

// invalidAnswer is the 422 of a value the suspension does not accept.
func invalidAnswer(ie *messages.InvalidAnswerError) *Error {
	hint := "send a value of the question's response_type: a text question takes a non-empty string, a form question a JSON object"
	if len(ie.ValidChoices) > 0 {
		hint = "answer with one of: " + strings.Join(ie.ValidChoices, ", ")
	}
	e := errorf(http.StatusUnprocessableEntity, KindInvalidAnswer, hint, "%v", ie)
	e.ValidChoices = ie.ValidChoices
	return e
}

// writeError sends e as {"error": {...}} with its status.
func writeError(w http.ResponseWriter, e *Error) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(e.Status)
	_ = json.NewEncoder(w).Encode(struct {
		Error *Error `json:"error"`
	}{e})
}

// writeJSON sends v with status.
func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	_ = enc.Encode(v)
}
