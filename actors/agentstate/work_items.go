package agentstate

import (
	"slices"
	"strings"
	"time"

	"github.com/holon-actors/holon-actors/messages"
)

// deliverySummaryLimit bounds the delivery summaries an agent keeps in its
// state (the journal keeps them all).
const deliverySummaryLimit = 32

// Bounds of a work item's process trace.
const (
	workTraceLines = 6
	workTraceChars = 160
)

// tracingWork reports whether the turn in flight is bound to an open work
// item, whose trace traceWork adds to: only then is a line worth building.
func (s *State) tracingWork() bool {
	if s.Turn == nil || s.Turn.Work == nil || s.Turn.Work.BoundItemID == "" {
		return false
	}
	r := s.WorkItems[s.Turn.Work.BoundItemID]
	return r != nil && r.State == messages.WorkItemStateOpen // once completed, its report replaces its trace
}

// traceWork adds a line to the trace of the work item the turn in flight
// is bound to; nothing for an unbound turn or an empty line.
func (s *State) traceWork(line string) {
	if !s.tracingWork() {
		return
	}
	line = strings.Join(strings.Fields(line), " ")
	if line == "said:" || line == "" {
		return
	}
	if head, whole := CutRunes(line, workTraceChars); !whole {
		line = head + "…"
	}
	if s.WorkTrace == nil {
		s.WorkTrace = make(map[string][]string)
	}
	id := s.Turn.Work.BoundItemID
	t := append(s.WorkTrace[id], line)
	if len(t) > workTraceLines {
		t = slices.Clone(t[len(t)-workTraceLines:])
	}
	s.WorkTrace[id] = t
}

// The scheduling states of a work item, derived from its lifecycle, plan
// status, blocker and the agent's waits.
type SchedulingState string

// The scheduling states.
const (
	SchedRunnable        SchedulingState = "runnable"
	SchedWaitingOperator SchedulingState = "waiting_operator"
	SchedWaitingTask     SchedulingState = "waiting_task"
	SchedWaitingExternal SchedulingState = "waiting_external"
	SchedBlocked         SchedulingState = "blocked"
	SchedCompleted       SchedulingState = "completed"
)

// TaskWaitBlocker opens the blocker the runtime sets on a turn's bound
// item when the turn ends waiting on its background tasks; the runtime
// clears such a blocker itself once those tasks have ended.
const TaskWaitBlocker = "awaiting task results"

// WorkItemOf returns the open or completed item id, nil if unknown.
func (s *State) WorkItemOf(id string) *messages.WorkItemRecord {
	if id == "" {
		return nil
	}
	return s.WorkItems[id]
}

// CurrentWorkItem is the current open work item, nil for none.
func (s *State) CurrentWorkItem() *messages.WorkItemRecord {
	if r := s.WorkItemOf(s.CurrentWorkItemID); r != nil && r.Open() {
		return r
	}
	return nil
}

// Scheduling derives the scheduling state of r.
func (s *State) Scheduling(r *messages.WorkItemRecord) SchedulingState {
	switch {
	case !r.Open():
		return SchedCompleted
	case strings.HasPrefix(r.BlockedBy, TaskWaitBlocker) && len(s.OpenTasks()) > 0:
		return SchedWaitingTask
	case r.BlockedBy != "":
		return SchedBlocked
	case r.PlanStatus == messages.PlanNeedsInput:
		return SchedWaitingOperator
	case r.ID == s.CurrentWorkItemID && s.Status == messages.StatusSuspended:
		return SchedWaitingOperator // its agent waits for its operator's answer
	case r.ID == s.CurrentWorkItemID && s.waitsExternally():
		return SchedWaitingExternal
	}
	return SchedRunnable
}

// waitsExternally reports an agent resting until something outside wakes
// it: asleep after a turn that ended waiting for an external change.
func (s *State) waitsExternally() bool {
	return s.Status == messages.StatusAsleep && s.LastClosure != nil &&
		s.LastClosure.WaitingReason == messages.AwaitingExternalChange
}

// WorkItemsSorted returns the items oldest first (ties by id), so every
// projection is deterministic.
func (s *State) WorkItemsSorted() []*messages.WorkItemRecord {
	out := make([]*messages.WorkItemRecord, 0, len(s.WorkItems))
	for _, r := range s.WorkItems {
		out = append(out, r)
	}
	slices.SortFunc(out, func(a, b *messages.WorkItemRecord) int {
		if c := a.CreatedAt.Compare(b.CreatedAt); c != 0 {
			return c
		}
		return strings.Compare(a.ID, b.ID)
	})
	return out
}

// QueuedRunnable is the oldest open, runnable item that is not current.
func (s *State) QueuedRunnable() *messages.WorkItemRecord {
	for _, r := range s.WorkItemsSorted() {
		if r.ID != s.CurrentWorkItemID && s.Scheduling(r) == SchedRunnable {
			return r
		}
	}
	return nil
}

// hasActivatableWork reports a runnable current or queued work item: an
// open fact, so a restarted runtime re-activates the agent to continue.
func (s *State) hasActivatableWork() bool {
	if c := s.CurrentWorkItem(); c != nil && s.Scheduling(c) == SchedRunnable {
		return true
	}
	return s.QueuedRunnable() != nil
}

// DeliverySummaryOf is the newest delivery summary of item id.
// WorkClosure is the closure of a turn that completed: continuable when
// persisted work warrants a runtime follow-up (the current work item is
// runnable: continue_active; else a queued one is: activate_queued, the
// model picks it), completed otherwise.
func (s *State) WorkClosure() messages.Closure {
	if c := s.CurrentWorkItem(); c != nil && s.Scheduling(c) == SchedRunnable {
		return messages.Closure{Outcome: messages.OutcomeContinuable, WorkSignal: &messages.WorkSignal{
			WorkItemID: c.ID, Status: messages.WorkSignalActive, ReactivationMode: messages.ReactivateContinueActive}}
	}
	if q := s.QueuedRunnable(); q != nil {
		return messages.Closure{Outcome: messages.OutcomeContinuable, WorkSignal: &messages.WorkSignal{
			WorkItemID: q.ID, Status: messages.WorkSignalQueued, ReactivationMode: messages.ReactivateActivateQueued}}
	}
	return messages.Closure{Outcome: messages.OutcomeCompleted}
}

func (s *State) DeliverySummaryOf(id string) *messages.DeliverySummaryRecord {
	for i := len(s.DeliverySummaries) - 1; i >= 0; i-- {
		if s.DeliverySummaries[i].WorkItemID == id {
			d := s.DeliverySummaries[i]
			return &d
		}
	}
	return nil
}

// applyWorkItemEvent applies the work-item events; false for any other
// payload.
func (s *State) applyWorkItemEvent(p messages.Payload) bool {
	switch p := p.(type) {
	case messages.WorkItemCreated:
		s.putWorkItem(p.Record)
	case messages.WorkItemUpdated:
		s.putWorkItem(p.Record)
	case messages.WorkItemPicked:
		s.CurrentWorkItemID = p.WorkItemID
		s.workItemMutated(p.WorkItemID)
	case messages.WorkItemCompleted:
		s.putWorkItem(p.Record)
		delete(s.WorkTrace, p.Record.ID) // its report replaces its trace
		if s.CurrentWorkItemID == p.Record.ID {
			s.CurrentWorkItemID = ""
		}
		if d := p.DeliverySummary; d != nil {
			s.DeliverySummaries = append(s.DeliverySummaries, *d)
			if len(s.DeliverySummaries) > deliverySummaryLimit {
				s.DeliverySummaries = slices.Clone(s.DeliverySummaries[len(s.DeliverySummaries)-deliverySummaryLimit:])
			}
		}
	case messages.WorkItemRecheckConsumed:
		if r := s.WorkItems[p.WorkItemID]; r != nil {
			at := p.ConsumedAt
			r.RecheckConsumedAt = &at
		}
	case messages.WorkItemBound:
		if s.Turn != nil && s.Turn.ID == p.TurnID {
			s.Turn.Work = &TurnWork{BoundItemID: p.WorkItemID}
		}
	default:
		return false
	}
	return true
}

// putWorkItem stores a copy of rec and counts it as a mutation.
func (s *State) putWorkItem(rec messages.WorkItemRecord) {
	if s.WorkItems == nil {
		s.WorkItems = make(map[string]*messages.WorkItemRecord)
	}
	r := rec.Clone()
	s.WorkItems[r.ID] = &r
	s.workItemMutated(r.ID)
}

// workItemMutated notes a successful mutation of item id: the running
// tick's turn made progress, the item's backoff ends, and the turn's stale
// reminder count restarts.
func (s *State) workItemMutated(id string) {
	if s.WorkTick != nil {
		s.WorkTick.Progress = true
	}
	delete(s.WorkBackoff, id)
	if s.Turn != nil {
		if s.Turn.Work == nil {
			s.Turn.Work = &TurnWork{}
		}
		s.Turn.Work.LastMutationRound = s.Turn.Round
	}
}

// noteWorkTickStart remembers a work-queue tick as its turn starts; it
// runs before the message leaves the queue.
func (s *State) noteWorkTickStart(p messages.MessageProcessingStarted) {
	if s.Turn != nil && s.Turn.ID == p.TurnID {
		return // an interject spliced into a running turn
	}
	for _, b := range s.Queue.Bands {
		for _, env := range b {
			if env.ID == p.MessageID && env.Kind == messages.KindSystemTick && env.SourceRefs[WorkTickRef] != "" {
				s.WorkTick = &WorkTick{MessageID: env.ID, WorkItemID: env.SourceRefs[WorkItemRef]}
				return
			}
		}
	}
}

// noteWorkTool counts a successful tool call of substance as progress of
// the running tick's turn. Resting, asking and deciding whether to ask are
// not substance.
func (s *State) noteWorkTool(p messages.ToolExecuted) {
	if s.WorkTick == nil || p.Status != messages.ToolOK {
		return
	}
	switch p.ToolName {
	case SleepToolName, ShouldAskToolName, RequestInputToolName:
		return
	}
	if !IsWorkItemTool(p.ToolName) { // a work-item tool counts through its event
		s.WorkTick.Progress = true
	}
}

// noteWorkTurnEnd settles the tick whose turn ended: no progress extends
// its item's backoff streak, progress ends it.
func (s *State) noteWorkTurnEnd(p messages.TurnTerminal, at time.Time) {
	w := s.WorkTick
	if w == nil || w.MessageID != p.MessageID {
		return
	}
	s.WorkTick = nil
	if w.WorkItemID == "" {
		return
	}
	if w.Progress {
		delete(s.WorkBackoff, w.WorkItemID)
		return
	}
	if s.WorkBackoff == nil {
		s.WorkBackoff = make(map[string]WorkBackoff)
	}
	b := s.WorkBackoff[w.WorkItemID]
	s.WorkBackoff[w.WorkItemID] = WorkBackoff{Streak: b.Streak + 1, Since: at}
}

// The runtime-owned work-item tools. Like Sleep, the agent runs them
// itself: they change its own journal (its work queue).
const (
	CreateWorkItemToolName   = "CreateWorkItem"
	PickWorkItemToolName     = "PickWorkItem"
	UpdateWorkItemToolName   = "UpdateWorkItem"
	CompleteWorkItemToolName = "CompleteWorkItem"
)

// IsWorkItemTool reports one of the work-item tools.
func IsWorkItemTool(name string) bool {
	switch name {
	case CreateWorkItemToolName, PickWorkItemToolName, UpdateWorkItemToolName, CompleteWorkItemToolName:
		return true
	}
	return false
}

// The source refs of a work-queue SystemTick: WorkTickRef says why it was
// queued (TickContinue, TickPick, TickRecheck), WorkItemRef names the item.
const (
	WorkTickRef  = "work_queue"
	WorkItemRef  = "work_item_id"
	TickContinue = "continue"
	TickPick     = "pick"
	TickRecheck  = "recheck"
)
