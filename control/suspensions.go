package control

import (
	"encoding/json"
	"net/http"
	"time"

	"github.com/holon-actors/holon-actors/actors"
	"github.com/holon-actors/holon-actors/actors/agentstate"
	"github.com/holon-actors/holon-actors/messages"
)

// SuspensionList answers GET /agents/{id}/suspensions (AgentID set) and
// GET /suspensions (every agent's open ones).
type SuspensionList struct {
	AgentID     string                      `json:"agent_id,omitempty"`
	Suspensions []messages.SuspensionRecord `json:"suspensions"`
}

// RespondRequest is the body of POST
// /control/agents/{id}/suspensions/{suspension_id}/respond. Value is any
// JSON the suspension's response type accepts: a choice's value, "yes" or
// "no", a non-empty string, or an object of form fields. Who answered
// is not part of it: the server records it from how the caller
// authenticated.
type RespondRequest struct {
	Value json.RawMessage `json:"value"`
	// RespondedBy is refused when set (400): responded_by is derived from
	// the authenticated surface, never taken from the request.
	RespondedBy string          `json:"responded_by,omitempty"`
	Metadata    json.RawMessage `json:"metadata,omitempty"`
}

// CancelSuspensionRequest is the optional body of POST
// /control/agents/{id}/suspensions/{suspension_id}/cancel.
type CancelSuspensionRequest struct {
	// RespondedBy is refused when set (400), as in RespondRequest.
	RespondedBy string `json:"responded_by,omitempty"`
	Reason      string `json:"reason,omitempty"`
}

// errClaimedResponder refuses a body that names who answers.
var errClaimedResponder = errorf(http.StatusBadRequest, KindBadRequest,
	"remove responded_by: the runtime records the operator from how the request authenticated (your user on the socket, the token on TCP)",
	"responded_by is not taken from the request body")

// SuspensionResponse answers an accepted answer or cancellation: the body
// of RFC-0025 §8, with agent_id for intent_id. choice_label and
// choice_description are set when the value is one of the choices.
type SuspensionResponse struct {
	AgentID           string                        `json:"agent_id"`
	SuspensionID      string                        `json:"suspension_id"`
	Resolution        messages.SuspensionResolution `json:"resolution"`
	Value             json.RawMessage               `json:"value"`
	ChoiceLabel       string                        `json:"choice_label,omitempty"`
	ChoiceDescription string                        `json:"choice_description,omitempty"`
	RespondedBy       string                        `json:"responded_by"`
	RespondedAt       time.Time                     `json:"responded_at"`
}

// String says how the suspension ended, with what and by whom.
func (r SuspensionResponse) String() string {
	return answerSummary(r.SuspensionID, messages.InputResponse{Resolution: r.Resolution, Value: r.Value,
		ChoiceLabel: r.ChoiceLabel, RespondedBy: r.RespondedBy})
}

func suspensionResponse(id string, r messages.InputResponse) SuspensionResponse {
	return SuspensionResponse{AgentID: id, SuspensionID: r.SuspensionID, Resolution: r.Resolution, Value: r.Value,
		ChoiceLabel: r.ChoiceLabel, ChoiceDescription: r.ChoiceDescription, RespondedBy: r.RespondedBy,
		RespondedAt: r.RespondedAt}
}

// NotificationList answers GET /agents/{id}/notifications.
type NotificationList struct {
	AgentID       string                        `json:"agent_id"`
	Notifications []agentstate.NotificationView `json:"notifications"`
}

// The values of the state query of GET /agents/{id}/suspensions.
const (
	SuspensionsAll  = ""     // open and recently closed
	SuspensionsOpen = "open" // open ones only
)

func (s *Server) agentSuspensions(w http.ResponseWriter, r *http.Request, id string) {
	state := r.URL.Query().Get("state")
	if state != SuspensionsAll && state != SuspensionsOpen {
		writeError(w, errorf(http.StatusBadRequest, KindBadRequest, "use ?state=open, or no state for all",
			"state %q is not valid", state))
		return
	}
	all, err := s.cfg.Runtime.Suspensions(r.Context(), id)
	if err != nil {
		writeError(w, runtimeError(err))
		return
	}
	out := make([]messages.SuspensionRecord, 0, len(all))
	for _, rec := range all {
		if state == SuspensionsAll || rec.Open() {
			out = append(out, rec)
		}
	}
	writeJSON(w, http.StatusOK, SuspensionList{AgentID: id, Suspensions: out})
}

func (s *Server) openSuspensions(w http.ResponseWriter, r *http.Request) {
	open, err := s.cfg.Runtime.OpenSuspensions(r.Context())
	if err != nil {
		writeError(w, runtimeError(err))
		return
	}
	if open == nil {
		open = []messages.SuspensionRecord{}
	}
	writeJSON(w, http.StatusOK, SuspensionList{Suspensions: open})
}

// respond answers a suspension. Only operator-authenticated listeners
// reach it: the socket, or TCP with the control token; responded_by is
// the operator they authenticated.
func (s *Server) respond(w http.ResponseWriter, r *http.Request) {
	var req RespondRequest
	id, ok := s.bodyForAgent(w, r, &req)
	if !ok {
		return
	}
	if req.RespondedBy != "" {
		writeError(w, errClaimedResponder)
		return
	}
	sid := r.PathValue("suspension_id")
	res, err := s.cfg.Runtime.Respond(r.Context(), id, actors.Answer{SuspensionID: sid, Value: req.Value,
		RespondedBy: callerOf(r).operator(), Metadata: req.Metadata})
	if err != nil {
		writeError(w, suspensionError(err, id, sid))
		return
	}
	writeJSON(w, http.StatusOK, suspensionResponse(id, res))
}

func (s *Server) cancelSuspension(w http.ResponseWriter, r *http.Request) {
	var req CancelSuspensionRequest
	id, ok := s.bodyForAgent(w, r, &req)
	if !ok {
		return
	}
	if req.RespondedBy != "" {
		writeError(w, errClaimedResponder)
		return
	}
	sid := r.PathValue("suspension_id")
	if req.Reason == "" {
		req.Reason = "cancelled by the operator"
	}
	res, err := s.cfg.Runtime.CancelSuspension(r.Context(), id, sid, callerOf(r).operator(), req.Reason)
	if err != nil {
		writeError(w, suspensionError(err, id, sid))
		return
	}
	writeJSON(w, http.StatusOK, suspensionResponse(id, res))
}

func (s *Server) agentNotifications(w http.ResponseWriter, r *http.Request, id string) {
	ns, err := s.cfg.Runtime.Notifications(r.Context(), id)
	if err != nil {
		writeError(w, runtimeError(err))
		return
	}
	if ns == nil {
		ns = []agentstate.NotificationView{}
	}
	writeJSON(w, http.StatusOK, NotificationList{AgentID: id, Notifications: ns})
}
