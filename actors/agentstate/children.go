package agentstate

import (
	"slices"

	"github.com/holon-actors/holon-actors/messages"
)

// RunningChildTasks lists the running child_agent_task records.
func (s *State) RunningChildTasks() []*TaskRecord {
	var out []*TaskRecord
	for _, r := range s.OpenTasks() {
		if r.Child != nil {
			out = append(out, r)
		}
	}
	return out
}

// ChildTask returns the task supervising child id: the running one if
// any, else the latest.
func (s *State) ChildTask(id string) (*TaskRecord, bool) {
	var found *TaskRecord
	for _, r := range s.Tasks {
		if r.Child == nil || r.Child.ChildAgentID != id {
			continue
		}
		if !r.Terminal() {
			return r, true
		}
		found = r
	}
	return found, found != nil
}

// ChildPreviewLimit bounds a child's result in its task_result and
// TaskOutput (runes); the child's own journal keeps it whole.
const ChildPreviewLimit = 8000

// HasOpenWorkItems reports an open (not completed) work item.
func (s *State) HasOpenWorkItems() bool {
	for _, r := range s.WorkItems {
		if r.State == messages.WorkItemStateOpen {
			return true
		}
	}
	return false
}

// ChildIDs lists the ids of the children of running child tasks.
func (s *State) ChildIDs() []string {
	var ids []string
	for _, r := range s.RunningChildTasks() {
		ids = append(ids, r.Child.ChildAgentID)
	}
	slices.Sort(ids)
	return ids
}

// BriefLimit bounds the briefs a child's observability shows; a result
// brief is kept up to childPreviewLimit, for its parent's task_result.
const BriefLimit = 2000

// applyBrief keeps the latest progress and result briefs, bounded (a cut
// one says so).
func (s *State) applyBrief(b messages.Brief) {
	switch b.Kind {
	case messages.BriefAck:
		s.LastProgressBrief = BoundedBrief(b.Text, BriefLimit)
	case messages.BriefResult, messages.BriefFailure:
		s.LastResultBrief = BoundedBrief(b.Text, ChildPreviewLimit)
	}
}

// BoundedBrief is text cut to n runes, marked when cut.
func BoundedBrief(text string, n int) string {
	if head, whole := CutRunes(text, n); !whole {
		return head + "\n…(cut; the agent's transcript has the whole text)"
	}
	return text
}
