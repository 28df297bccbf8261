package control

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strconv"
)

// BudgetRequest is the body of POST /control/agents/{id}/budget.
// TokenBudget is the limit in tokens (input plus output, the agent's own
// model rounds and its private descendants'); 0 means unlimited.
// ResetSpend counts the spend from zero again.
type BudgetRequest struct {
	TokenBudget json.RawMessage `json:"token_budget"`
	ResetSpend  bool            `json:"reset_spend,omitempty"`
	Reason      string          `json:"reason,omitempty"`
}

// budgetHint is what a refused budget says to do.
const budgetHint = `send {"token_budget": N} with N a whole number of tokens, 0 for unlimited`

// tokenLimit reads the limit: a JSON integer from 0 to 2^64-1, nothing else.
func (b BudgetRequest) tokenLimit() (uint64, *Error) {
	raw := bytes.TrimSpace(b.TokenBudget)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		return 0, errorf(http.StatusUnprocessableEntity, KindInvalid, budgetHint, "token_budget is required")
	}
	n, err := strconv.ParseUint(string(raw), 10, 64)
	if err != nil {
		return 0, errorf(http.StatusUnprocessableEntity, KindInvalid, budgetHint,
			"token_budget %s is not a whole number of tokens from 0 to %d", raw, uint64(1<<64-1))
	}
	return n, nil
}

func (s *Server) setBudget(w http.ResponseWriter, r *http.Request) {
	var req BudgetRequest
	if e := decodeBody(w, r, &req); e != nil {
		writeError(w, e)
		return
	}
	limit, e := req.tokenLimit()
	if e != nil {
		writeError(w, e)
		return
	}
	id, ok := s.agentID(w, r)
	if !ok {
		return
	}
	in, err := s.cfg.Runtime.SetTokenBudget(r.Context(), id, limit, req.ResetSpend, req.Reason)
	if err != nil {
		writeError(w, runtimeError(err))
		return
	}
	writeJSON(w, http.StatusOK, in)
}
