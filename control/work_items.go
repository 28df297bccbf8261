package control

import (
	"errors"
	"net/http"
	"strconv"

	"github.com/holon-actors/holon-actors/actors"
)

// WorkItemList answers GET /agents/{id}/work-items.
type WorkItemList struct {
	AgentID   string                `json:"agent_id"`
	WorkItems []actors.WorkItemView `json:"work_items"`
}

// EnqueueWorkItemRequest is the body of POST /control/agents/{id}/work-items.
type EnqueueWorkItemRequest struct {
	Objective string `json:"objective"`
}

// enqueueHint says what an acceptable objective is.
var enqueueHint = "send {\"objective\": \"...\"}: one or two sentences, at most " +
	strconv.Itoa(actors.MaxObjectiveChars) + " characters"

func (s *Server) agentWorkItems(w http.ResponseWriter, r *http.Request, id string) {
	items, err := s.cfg.Runtime.WorkItems(r.Context(), id)
	if err != nil {
		writeError(w, runtimeError(err))
		return
	}
	if items == nil {
		items = []actors.WorkItemView{}
	}
	writeJSON(w, http.StatusOK, WorkItemList{AgentID: id, WorkItems: items})
}

// enqueueWorkItem creates a queued work item through the control plane: a
// persisted open item, no transcript message; the agent's current item
// stays current.
func (s *Server) enqueueWorkItem(w http.ResponseWriter, r *http.Request) {
	var req EnqueueWorkItemRequest
	id, ok := s.bodyForAgent(w, r, &req)
	if !ok {
		return
	}
	if e := checkObjective(req.Objective); e != nil {
		writeError(w, e)
		return
	}
	v, err := s.cfg.Runtime.EnqueueWorkItem(r.Context(), id, req.Objective)
	if errors.Is(err, actors.ErrInvalidObjective) {
		writeError(w, errorf(http.StatusUnprocessableEntity, KindInvalid, enqueueHint, "%v", err))
		return
	}
	if err != nil {
		writeError(w, runtimeError(err))
		return
	}
	writeJSON(w, http.StatusCreated, v)
}
