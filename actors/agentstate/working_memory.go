package agentstate

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/holon-actors/holon-actors/messages"
)

// Working memory: the agent's structured working state, derived at a turn
// boundary from its work items, briefs, tool outcomes and waits. The same
// state always derives the same memory; a derivation that differs from
// the current revision is journaled as the next revision
// (working_memory_updated) with its delta, and replay sets the memory from
// the event. A model-visible turn's prompt carries the delta accumulated
// since the revision a prompt last carried.

// Bounds of the working memory and its prompt delta.
const (
	memoryTextLimit  = 400 // runes of an objective, a result or a line
	memoryListLimit  = 12  // entries of a list
	memoryDeltaLimit = 24  // lines of a pending delta
)

// DeriveWorkingMemory is the working memory st's evidence gives.
func DeriveWorkingMemory(st *State) messages.WorkingMemory {
	var m messages.WorkingMemory
	if w := st.ActiveWorkspace; w != nil {
		m.WorkspaceID = w.WorkspaceID
	}
	if r := st.CurrentWorkItem(); r != nil {
		m.WorkItemID, m.Objective, m.PlanStatus = r.ID, memoryLine(r.Objective), string(r.PlanStatus)
		for _, td := range r.TodoList {
			m.Todo = append(m.Todo, fmt.Sprintf("[%s] %s", td.State, memoryLine(td.Text)))
		}
		m.Todo = boundList(m.Todo)
	}
	m.OtherWork = otherWork(st)
	m.LastResult = memoryLine(st.LastResultBrief)
	m.RecentTools = boundList(slices.Clone(st.Memory.LastTools))
	if c := st.LastClosure; c != nil && c.Outcome == messages.OutcomeWaiting {
		m.Waiting = string(c.WaitingReason)
	}
	if st.Status == messages.StatusAsleep && m.Waiting == "" {
		m.Waiting = "asleep"
	}
	for _, r := range st.OpenTasks() {
		m.RunningTasks = append(m.RunningTasks, r.TaskID+": "+memoryLine(r.Summary))
	}
	slices.Sort(m.RunningTasks)
	m.RunningTasks = boundList(m.RunningTasks)
	return m
}

// otherWork is the open work other than the current item, by id.
func otherWork(st *State) []string {
	var out []string
	for id, r := range st.WorkItems {
		if !r.Open() || id == st.CurrentWorkItemID {
			continue
		}
		label := "queued"
		if r.BlockedBy != "" {
			label = "blocked: " + memoryLine(r.BlockedBy)
		}
		out = append(out, fmt.Sprintf("%s (%s): %s", id, label, memoryLine(r.Objective)))
	}
	slices.Sort(out)
	return boundList(out)
}

// WorkingMemoryDelta is what changed from old to cur, one line each:
// "field: value" for a changed value ("field: (none)" when cleared),
// "field + entry" and "field - entry" for list entries.
func WorkingMemoryDelta(old, cur messages.WorkingMemory) []string {
	var d []string
	value := func(name, a, b string) {
		if a != b {
			d = append(d, name+": "+cmp.Or(b, "(none)"))
		}
	}
	list := func(name string, a, b []string) {
		for _, e := range b {
			if !slices.Contains(a, e) {
				d = append(d, name+" + "+e)
			}
		}
		for _, e := range a {
			if !slices.Contains(b, e) {
				d = append(d, name+" - "+e)
			}
		}
	}
	value("workspace", old.WorkspaceID, cur.WorkspaceID)
	value("work item", old.WorkItemID, cur.WorkItemID)
	value("objective", old.Objective, cur.Objective)
	value("plan status", old.PlanStatus, cur.PlanStatus)
	list("todo", old.Todo, cur.Todo)
	list("other work", old.OtherWork, cur.OtherWork)
	value("last result", old.LastResult, cur.LastResult)
	list("recent tools", old.RecentTools, cur.RecentTools)
	value("waiting", old.Waiting, cur.Waiting)
	list("running tasks", old.RunningTasks, cur.RunningTasks)
	return d
}

// WorkingMemoryUpdate is the working_memory_updated a turn boundary
// records, nil when the derivation equals the current revision.
func WorkingMemoryUpdate(st *State) messages.Payload {
	cur := DeriveWorkingMemory(st)
	delta := WorkingMemoryDelta(st.Memory.Current, cur)
	if len(delta) == 0 {
		return nil
	}
	return messages.WorkingMemoryUpdated{Revision: st.Memory.Revision + 1, TurnIndex: st.TurnIndex, Memory: cur, Delta: delta}
}

// applyWorkingMemory sets the memory to p's revision and adds its delta
// to the pending one (the newest memoryDeltaLimit lines).
func (s *State) applyWorkingMemory(p messages.WorkingMemoryUpdated) {
	s.Memory.Current, s.Memory.Revision = p.Memory, p.Revision
	d := append(slices.Clone(s.Memory.PendingDelta), p.Delta...)
	if n := len(d); n > memoryDeltaLimit {
		d = d[n-memoryDeltaLimit:]
	}
	s.Memory.PendingDelta = d
}

// promptMemory hands the pending delta to the turn p starts when the
// model sees it: the turn's prompt carries it, and the revision counts as
// prompted.
func (s *State) promptMemory(p messages.MessageProcessingStarted) {
	if s.Turn == nil || s.Turn.ID != p.TurnID || s.Turn.Memory != nil {
		return
	}
	if c := p.Continuation; c != nil && !c.ModelVisible {
		return
	}
	s.Turn.Memory = &TurnMemoryDelta{FirstMessage: s.MessageCount() - 1, Prompted: s.Memory.PendingDelta}
	s.Memory.PendingDelta, s.Memory.LastPromptedRevision = nil, s.Memory.Revision
}

// MessageCount is how many conversation messages the agent has had,
// compacted ones included.
func (s *State) MessageCount() uint64 {
	return s.CompactedItems + uint64(len(s.Conversation))
}

// workingMemoryBlock is the prompt's view of the turn's working memory:
// the current revision, and the delta since the revision the model last
// saw; "" before the first revision. It points at MemorySearch only when
// the agent has a memory index (env.Cfg.Memory).
func workingMemoryBlock(st *State, env Env) string {
	if st.Memory.Revision == 0 {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "\n\nWorking memory (revision %d).", st.Memory.Revision)
	if t := st.Turn; t != nil && t.Memory != nil && len(t.Memory.Prompted) > 0 {
		b.WriteString(" Changed since you last saw it:")
		for _, l := range t.Memory.Prompted {
			b.WriteString("\n- " + l)
		}
	}
	if env.Cfg.Memory {
		b.WriteString("\nMemorySearch finds earlier work, briefs and episodes that left this conversation.")
	}
	return b.String()
}

func memoryLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if head, whole := CutRunes(s, memoryTextLimit); !whole {
		return head + "…"
	}
	return s
}

func boundList(l []string) []string {
	if len(l) > memoryListLimit {
		return l[:memoryListLimit]
	}
	return l
}
