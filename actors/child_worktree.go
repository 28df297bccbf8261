package actors

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/holon-actors/holon-actors/actors/agentstate"
	"github.com/holon-actors/holon-actors/actors/tasks"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/tools/task"
	"github.com/holon-actors/holon-actors/tools/worktree"
)

// A worktree-mode child's git never runs in the parent's Receive: its
// worktree is made (before the child's actor starts) and cleaned up
// (before its task's end is journaled) by a goroutine the parent starts,
// which posts the outcome back (worktreeMade, worktreeCleaned). Meanwhile
// the parent answers everything else; requests for the child wait for its
// actor, and a second report of the child's end waits for the first's
// cleanup, so the stopper's reply (TaskStop's) still goes out once the
// end is durable.

type (
	// worktreeMade carries the outcome of making the worktree of the
	// child of task taskID.
	worktreeMade struct {
		taskID, childID string
		err             error
	}
	// worktreeCleaned carries a finished child's worktree, cleaned up,
	// with the report of the end it belongs to.
	worktreeCleaned struct {
		end *childFinished
		wt  worktree.Info
	}
)

func (*worktreeMade) Priority() messages.Priority    { return messages.PriorityNext }
func (*worktreeCleaned) Priority() messages.Priority { return messages.PriorityNext }

// childGit is what a parent's worktree goroutines have under way, by
// child id. Only Receive touches it.
type childGit struct {
	// making holds the requests for a child whose worktree is being made,
	// delivered once its actor runs.
	making map[string][]pending
	// made are the children whose worktree this actor has made (or found).
	made map[string]bool
	// cleaning holds, for a child whose worktree is being cleaned up, who
	// waits for its end to be recorded (nil entries: nobody to answer).
	cleaning map[string][]*actor.PID
}

// worktreeGitTimeout bounds the git commands of making or cleaning up one
// worktree.
const worktreeGitTimeout = time.Minute

// worktreeReady reports whether the child of task rec may start: it works
// in its parent's workspace, or its worktree was made. Otherwise it starts
// making the worktree (unless that is under way) and p, when set, waits
// for the child's actor.
func (a *agent) worktreeReady(c actor.Context, rec *agentstate.TaskRecord, p *pending) bool {
	id, wt := rec.Child.ChildAgentID, rec.Child.Worktree
	if _, live := a.children[id]; live || wt == nil || a.git.made[id] {
		return true
	}
	if a.git.making == nil {
		a.git.making = map[string][]pending{}
	}
	waiting, busy := a.git.making[id]
	if p != nil {
		waiting = append(waiting, *p)
	}
	a.git.making[id] = waiting
	if busy {
		return false
	}
	self, root, info, taskID := c.Self(), c.ActorSystem().Root, *wt, rec.TaskID
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), worktreeGitTimeout)
		defer cancel()
		root.Send(self, &worktreeMade{taskID: taskID, childID: id, err: worktree.Make(ctx, info)})
	}()
	return false
}

// worktreeMadeBack starts the child whose worktree was made, and hands it
// the requests that waited. A worktree that could not be made fails the
// task (the child never runs outside it); a task that ended meanwhile
// starts nothing. What waited goes where forChild sends it then.
func (a *agent) worktreeMadeBack(c actor.Context, m *worktreeMade) {
	waiting := a.git.making[m.childID]
	delete(a.git.making, m.childID)
	rec, ok := a.state.ChildTask(m.childID)
	running := ok && !rec.Terminal() && a.state.Status != messages.StatusArchived
	var pid *actor.PID
	switch {
	case m.err != nil && running:
		a.deps.Log.Error().Err(m.err).Str("agent_id", a.id).Str("child_agent_id", m.childID).Msg("child worktree not made")
		a.endChild(c, &childFinished{childID: m.childID, status: task.StatusFailed,
			text: "The child did not start: its worktree could not be made: " + m.err.Error()}, nil)
	case running:
		if a.git.made == nil {
			a.git.made = map[string]bool{}
		}
		a.git.made[m.childID] = true
		var err error
		if pid, err = a.ensureChild(c, rec); err != nil {
			a.deps.Log.Error().Err(err).Str("agent_id", a.id).Str("child_agent_id", m.childID).Msg("child not started")
		}
	}
	for _, p := range waiting {
		if pid != nil {
			sendPending(c, pid, p)
		} else if rt := a.wire.host; rt != nil {
			rt.DeliverFlat(m.childID, p)
		}
	}
}

// endChild records the end of the task supervising a child (finishChild)
// and answers reply, if set, with tasks.Recorded once it is durable. A
// child with a worktree has it cleaned up first, off the actor; a second
// report meanwhile waits for the first, then changes nothing.
func (a *agent) endChild(c actor.Context, m *childFinished, reply *actor.PID) {
	rec, ok := a.state.ChildTask(m.childID)
	if !ok || rec.Terminal() || rec.Child.Worktree == nil {
		a.childEnded(c, m, nil, []*actor.PID{reply})
		return
	}
	if waiting, busy := a.git.cleaning[m.childID]; busy {
		a.git.cleaning[m.childID] = append(waiting, reply)
		return
	}
	if a.git.cleaning == nil {
		a.git.cleaning = map[string][]*actor.PID{}
	}
	a.git.cleaning[m.childID] = []*actor.PID{reply}
	self, root, info := c.Self(), c.ActorSystem().Root, *rec.Child.Worktree
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), worktreeGitTimeout)
		defer cancel()
		root.Send(self, &worktreeCleaned{end: m, wt: worktree.Cleanup(ctx, info)})
	}()
}

// worktreeCleanedBack records the end whose worktree was cleaned up and
// answers everyone who waited for it.
func (a *agent) worktreeCleanedBack(c actor.Context, m *worktreeCleaned) {
	waiting := a.git.cleaning[m.end.childID]
	delete(a.git.cleaning, m.end.childID)
	if m.wt.CleanupStatus != worktree.StatusRemoved {
		a.deps.Log.Warn().Str("agent_id", a.id).Str("worktree", m.wt.Path).Str("branch", m.wt.Branch).
			Str("cleanup_status", m.wt.CleanupStatus).Str("note", m.wt.Note).Msg("child worktree kept")
	}
	a.childEnded(c, m.end, &m.wt, waiting)
}

// childEnded journals the child's end with its worktree's outcome (wt,
// nil without one), answers replies and goes on.
func (a *agent) childEnded(c actor.Context, m *childFinished, wt *worktree.Info, replies []*actor.PID) {
	err := a.finishChild(m, wt)
	for _, r := range replies {
		if r != nil {
			c.Send(r, &tasks.Recorded{Err: err})
		}
	}
	a.advance(c)
}

// finishChild journals the end of the task supervising a child, with
// its result as the task_result message and its worktree's outcome (wt);
// a repeat changes nothing.
func (a *agent) finishChild(m *childFinished, wt *worktree.Info) error {
	rec, ok := a.state.ChildTask(m.childID)
	if !ok || rec.Terminal() {
		return nil
	}
	sup := tasks.Supervision(a.id, *rec)
	if wt != nil {
		sup.Worktree = wt
	}
	preview, whole := agentstate.CutRunes(m.text, agentstate.ChildPreviewLimit)
	out := task.OutputTask{TaskID: rec.TaskID, Kind: task.KindChildAgent, Status: m.status, Summary: rec.Summary,
		OutputPreview: preview, OutputTruncated: !whole, ResultSummary: messages.NotificationSummary(m.text), ChildSupervision: &sup}
	data, err := json.Marshal(out)
	if err != nil {
		return fmt.Errorf("encode the result of task %s: %w", rec.TaskID, err)
	}
	return a.finishTask(tasks.End{Finished: messages.TaskFinished{TaskID: rec.TaskID, Status: m.status, Result: data},
		Text: childResultText(m.childID, rec, m.status, m.text) + worktreeText(sup.Worktree)})
}
