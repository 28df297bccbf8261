package control

import (
	"net/http"

	"github.com/holon-actors/holon-actors/actors"
)

// ChildList answers GET /agents/{id}/children.
type ChildList struct {
	AgentID  string             `json:"agent_id"`
	Children []actors.ChildView `json:"children"`
}

// agentChildren lists the private children an agent supervises: the
// running ones, and the finished ones it still remembers with ?all=true.
func (s *Server) agentChildren(w http.ResponseWriter, r *http.Request, id string) {
	all := r.URL.Query().Get("all") == "true"
	kids, err := s.cfg.Runtime.Children(r.Context(), id, all)
	if err != nil {
		writeError(w, runtimeError(err))
		return
	}
	if kids == nil {
		kids = []actors.ChildView{}
	}
	writeJSON(w, http.StatusOK, ChildList{AgentID: id, Children: kids})
}
