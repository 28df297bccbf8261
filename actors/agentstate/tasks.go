package agentstate

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"

	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/tools/task/taskspec"
)

// Terminal reports whether the task has ended.
func (r *TaskRecord) Terminal() bool { return taskspec.Terminal(r.Status) }

// terminalLimit bounds the terminal records an agent keeps; the oldest
// are forgotten first (their artifacts stay on disk).
const terminalLimit = 200

func (s *State) applyTaskStarted(ev messages.Event, p messages.TaskStarted) error {
	rec := &TaskRecord{TaskID: p.TaskID, Kind: p.Kind, Summary: p.Summary, ParentMessageID: p.ParentMessageID,
		Status: taskspec.StatusRunning, CreatedAt: ev.At, UpdatedAt: ev.At}
	if p.Kind == taskspec.KindChildAgent {
		var cr ChildTaskRecord
		if err := json.Unmarshal(p.Record, &cr); err != nil {
			return fmt.Errorf("apply seq %d: child task %s record: %w", ev.Seq, p.TaskID, err)
		}
		rec.Child = &cr
	} else if len(p.Record) > 0 && string(p.Record) != "null" {
		var cr taskspec.CommandRecord
		if err := json.Unmarshal(p.Record, &cr); err != nil {
			return fmt.Errorf("apply seq %d: task %s record: %w", ev.Seq, p.TaskID, err)
		}
		rec.Command = &cr
	}
	if s.Tasks == nil {
		s.Tasks = make(map[string]*TaskRecord)
	}
	s.Tasks[p.TaskID] = rec
	return nil
}

func (s *State) applyTaskFinished(ev messages.Event, p messages.TaskFinished) {
	rec, ok := s.Tasks[p.TaskID]
	if !ok || rec.Terminal() {
		return // settled once; a repeat changes nothing
	}
	rec.Status, rec.ExitStatus, rec.Result, rec.UpdatedAt = p.Status, p.ExitStatus, p.Result, ev.At
	if rec.Child != nil {
		rec.Child.Prompt = "" // the recovery spec is done with; the journal keeps it
	}
	s.forgetOldTasks()
}

// forgetOldTasks drops the oldest terminal records beyond terminalLimit.
func (s *State) forgetOldTasks() {
	var done []*TaskRecord
	for _, r := range s.Tasks {
		if r.Terminal() {
			done = append(done, r)
		}
	}
	if len(done) <= terminalLimit {
		return
	}
	sortTasks(done)
	for _, r := range done[:len(done)-terminalLimit] {
		delete(s.Tasks, r.TaskID)
	}
}

// OpenTasks lists the records of the tasks still running, oldest first.
func (s *State) OpenTasks() []*TaskRecord {
	var open []*TaskRecord
	for _, r := range s.Tasks {
		if !r.Terminal() {
			open = append(open, r)
		}
	}
	sortTasks(open)
	return open
}

// sortTasks orders records by creation, then id.
func sortTasks(rs []*TaskRecord) {
	sort.Slice(rs, func(i, j int) bool {
		if !rs[i].CreatedAt.Equal(rs[j].CreatedAt) {
			return rs[i].CreatedAt.Before(rs[j].CreatedAt)
		}
		return rs[i].TaskID < rs[j].TaskID
	})
}

// CopyTasks returns deep copies of every record, oldest first.
func (s *State) CopyTasks() []TaskRecord {
	all := make([]*TaskRecord, 0, len(s.Tasks))
	for _, r := range s.Tasks {
		all = append(all, r)
	}
	sortTasks(all)
	out := make([]TaskRecord, len(all))
	for i, r := range all {
		c := *r
		if r.Command != nil {
			cmd := *r.Command
			c.Command = &cmd
		}
		if r.Child != nil {
			child := *r.Child
			c.Child = &child
		}
		if r.ExitStatus != nil {
			c.ExitStatus = new(*r.ExitStatus)
		}
		c.Result = append(json.RawMessage(nil), r.Result...)
		out[i] = c
	}
	return out
}

// RunningTasksOf lists, sorted, the tasks started by the turn of message
// msgID that are still running.
func (s *State) RunningTasksOf(msgID string) []string {
	var out []string
	for id, r := range s.Tasks {
		if r.ParentMessageID == msgID && !r.Terminal() {
			out = append(out, id)
		}
	}
	slices.Sort(out)
	return out
}
