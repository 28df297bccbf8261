package control

import (
	"errors"
	"net/http"

	"github.com/holon-actors/holon-actors/actors"
)

// TimerList answers the timer routes: the agent's created timers, the
// next due first (paused ones last).
type TimerList struct {
	AgentID string             `json:"agent_id"`
	Timers  []actors.TimerView `json:"timers"`
}

// timerHint says what a timer request takes.
const timerHint = "send {\"message\": \"...\"} with one of at (RFC 3339), after (15m), every (1h) or cron (\"0 9 * * *\") with zone (Europe/Paris)"

// timerError maps the timer refusals to HTTP; others go to runtimeError.
func timerError(err error) *Error {
	switch {
	case errors.Is(err, actors.ErrTimerInvalid):
		return errorf(http.StatusUnprocessableEntity, KindInvalid, timerHint, "%v", err)
	case errors.Is(err, actors.ErrTooManyTimers):
		return errorf(http.StatusConflict, KindConflict, "cancel a timer first: holon-actors timers cancel <timer-id>", "%v", err)
	case errors.Is(err, actors.ErrTimerTooFrequent):
		return errorf(http.StatusUnprocessableEntity, KindInvalid, "use a longer interval", "%v", err)
	case errors.Is(err, actors.ErrTimerNotFound):
		return errorf(http.StatusNotFound, KindNotFound, "list them with holon-actors timers list", "%v", err)
	}
	return runtimeError(err)
}

func (s *Server) agentTimers(w http.ResponseWriter, r *http.Request, id string) {
	ts, err := s.cfg.Runtime.Timers(r.Context(), id)
	if err != nil {
		writeError(w, timerError(err))
		return
	}
	writeTimers(w, id, ts)
}

func writeTimers(w http.ResponseWriter, id string, ts []actors.TimerView) {
	if ts == nil {
		ts = []actors.TimerView{}
	}
	writeJSON(w, http.StatusOK, TimerList{AgentID: id, Timers: ts})
}

// createTimer creates a timer on the operator's behalf: 201 with it.
func (s *Server) createTimer(w http.ResponseWriter, r *http.Request) {
	var req actors.TimerRequest
	id, ok := s.bodyForAgent(w, r, &req)
	if !ok {
		return
	}
	v, err := s.cfg.Runtime.CreateTimer(r.Context(), id, req)
	if err != nil {
		writeError(w, timerError(err))
		return
	}
	s.cfg.Log.Info().Str("agent_id", id).Str("timer_id", v.TimerID).Msg("timer created")
	writeJSON(w, http.StatusCreated, v)
}

// changeTimer is the handler of one operator action on the path's timer.
func (s *Server) changeTimer(op actors.TimerOp) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		id, ok := s.agentID(w, r)
		if !ok {
			return
		}
		ts, err := s.cfg.Runtime.ChangeTimer(r.Context(), id, op, r.PathValue("timer"))
		if err != nil {
			writeError(w, timerError(err))
			return
		}
		s.cfg.Log.Info().Str("agent_id", id).Str("timer_id", r.PathValue("timer")).Str("action", string(op)).Msg("timer changed")
		writeTimers(w, id, ts)
	}
}
