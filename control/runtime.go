package control

import (
	"context"
	"net/http"
	"time"

	"github.com/holon-actors/holon-actors/actors/agentstate"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/persistence"
)

// Activity is the runtime activity summary of the daemon lifecycle
// contract.
type Activity struct {
	ActiveAgentCount     int    `json:"active_agent_count"`
	ActiveTaskCount      int    `json:"active_task_count"`
	ProcessingAgentCount int    `json:"processing_agent_count"`
	WaitingAgentCount    int    `json:"waiting_agent_count"`
	State                string `json:"state"` // idle | waiting | processing
}

// Failure is the last known runtime failure.
type Failure struct {
	OccurredAt time.Time `json:"occurred_at,omitzero"` // unknown for a turn failure from a snapshot older than last_error_at
	Summary    string    `json:"summary"`
	Phase      string    `json:"phase"` // startup | shutdown | runtime_turn
	DetailHint string    `json:"detail_hint,omitempty"`
}

// RuntimeStatus answers GET /control/runtime/status.
type RuntimeStatus struct {
	RuntimeInfo
	Healthy     bool        `json:"healthy"`
	Activity    Activity    `json:"activity"`
	Store       StoreHealth `json:"store"`
	LastFailure *Failure    `json:"last_failure,omitempty"`
	// Cluster is the node's cluster, when it is a cluster node.
	Cluster *ClusterStatus `json:"cluster,omitempty"`
}

// StoreHealth is what the journal reported at open and since.
type StoreHealth struct {
	Failed           string                      `json:"failed,omitempty"`
	Quarantined      []persistence.Quarantine    `json:"quarantined,omitempty"`
	DroppedTails     []persistence.DroppedRecord `json:"dropped_tails,omitempty"`
	Lost             []persistence.LostRange     `json:"lost,omitempty"`
	TornWAL          []persistence.TornWAL       `json:"torn_wal,omitempty"`
	Notes            []string                    `json:"notes,omitempty"`
	SkippedSnapshots int                         `json:"skipped_snapshots"`
	// DiskFull says why writes are refused while free space is below the
	// reserve (--disk-reserve-mib).
	DiskFull string `json:"disk_full,omitempty"`
}

func storeHealth(h persistence.Health) StoreHealth {
	return StoreHealth{Failed: h.Failed, Quarantined: h.Quarantined, DroppedTails: h.DroppedTails,
		Lost: h.Lost, TornWAL: h.TornWAL, Notes: h.Notes, SkippedSnapshots: h.SkippedSnapshots, DiskFull: h.DiskFull}
}

func (s *Server) runtimeStatus(w http.ResponseWriter, r *http.Request) {
	st := RuntimeStatus{RuntimeInfo: s.cfg.Info, Store: storeHealth(s.cfg.Store.Health())}
	st.Healthy = st.Store.Failed == "" && st.Store.DiskFull == ""
	act, last := s.activity(r)
	st.Activity, st.LastFailure = act, last
	st.Cluster = s.clusterStatus()
	if st.LastFailure == nil && s.cfg.LastFailure != nil {
		st.LastFailure = s.cfg.LastFailure()
	}
	writeJSON(w, http.StatusOK, st)
}

// activityWait bounds how long the runtime status waits on its agents: an
// agent in a restart loop (its journal refusing writes, say) does not
// answer, and must not hold up the status, and so `daemon start`, for a
// whole request timeout.
const activityWait = 2 * time.Second

// activity summarizes the active agents (dormant ones are idle by
// definition) and reports the latest turn failure among them.
func (s *Server) activity(r *http.Request) (Activity, *Failure) {
	var a Activity
	var last *Failure
	ctx, cancel := context.WithTimeout(r.Context(), activityWait)
	defer cancel()
	s.activeInfos(ctx, func(id string, in agentstate.AgentInfo) {
		a.ActiveTaskCount += in.RunningTasks
		if in.Visibility == messages.VisibilityPrivate {
			return
		}
		a.ActiveAgentCount++
		switch {
		case in.Status == messages.StatusBooting, in.Status == messages.StatusAwakeRunning:
			a.ProcessingAgentCount++
		case in.Status == messages.StatusAwaitingTask, in.Status == messages.StatusSuspended, in.RunningTasks > 0:
			a.WaitingAgentCount++ // on an answer, or on its tasks' results
		}
		if in.LastError != "" && in.LastErrorResolvedAt == nil && last == nil { // a later success resolves it
			last = &Failure{Summary: id + ": " + oneLine(in.LastError), Phase: "runtime_turn",
				DetailHint: "holon-actors tail --agent " + id}
			if in.LastErrorAt != nil {
				last.OccurredAt = *in.LastErrorAt
			}
		}
	})
	switch {
	case a.ProcessingAgentCount > 0:
		a.State = "processing"
	case a.WaitingAgentCount > 0 || a.ActiveTaskCount > 0:
		a.State = "waiting"
	default:
		a.State = "idle"
	}
	return a, last
}

// ShutdownResponse answers POST /control/runtime/shutdown.
type ShutdownResponse struct {
	ShuttingDown bool `json:"shutting_down"`
}

func (s *Server) runtimeShutdown(w http.ResponseWriter, r *http.Request) {
	if s.cfg.Shutdown == nil {
		writeError(w, errorf(http.StatusConflict, KindConflict, "stop the owning process instead",
			"this runtime does not accept shutdown over the control API"))
		return
	}
	writeJSON(w, http.StatusAccepted, ShutdownResponse{ShuttingDown: true})
	s.shutdown.Do(func() { go s.cfg.Shutdown() })
}
