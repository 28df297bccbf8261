package actors

import (
	"context"
	"time"

	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/providers"
)

// AgentView is an agent's state as shown outside actors (the control API's
// status, state and transcript): its info, activity totals, what is queued,
// in flight and pending, and its conversation. It is a copy, safe to keep.
type AgentView struct {
	Info              AgentInfo
	TurnIndex         uint64
	TotalInputTokens  uint64
	TotalOutputTokens uint64
	TotalModelRounds  uint64
	LastBriefAt       *time.Time
	LastClosure       *messages.Closure
	Sleep             *SleepRecord
	PendingWakeHint   *WakeHint
	// Queue is the admitted messages not yet started, in the order they
	// would run (most urgent band first).
	Queue  []messages.MessageEnvelope
	Turn   *TurnState
	Timers map[string]TimerState
	// Tasks are the agent's background tasks, running and remembered,
	// by task id.
	Tasks map[string]TaskRecord
	// Context is what the model sees of the conversation.
	Context      ContextInfo
	LastSeq      uint64
	Conversation []providers.Item
}

// View returns agent id's view, activating it (so Info.Active is true);
// errors are State's.
func (r *Runtime) View(ctx context.Context, id string) (AgentView, error) {
	st, err := r.State(ctx, id)
	if err != nil {
		return AgentView{}, err
	}
	in := r.InfoOf(&st)
	in.Active = true // State answered from the agent's running actor
	if in.LoadedAgentsMD, err = r.LoadedAgentsMD(ctx, id); err != nil {
		return AgentView{}, err
	}
	return viewOf(&st, in), nil
}

func viewOf(st *AgentState, in AgentInfo) AgentView {
	v := AgentView{Info: in, TurnIndex: st.TurnIndex, TotalInputTokens: st.TotalInputTokens,
		TotalOutputTokens: st.TotalOutputTokens, TotalModelRounds: st.TotalModelRounds, LastBriefAt: st.LastBriefAt,
		LastClosure: st.LastClosure, Sleep: st.Sleep, PendingWakeHint: st.PendingWakeHint, Turn: st.Turn,
		Timers: st.Timers, Context: st.Context(), LastSeq: st.LastSeq, Conversation: st.Conversation}
	if len(st.Tasks) > 0 {
		v.Tasks = make(map[string]TaskRecord, len(st.Tasks))
		for id, rec := range st.Tasks {
			v.Tasks[id] = *rec
		}
	}
	for _, band := range st.Queue.Bands {
		v.Queue = append(v.Queue, band...)
	}
	return v
}
