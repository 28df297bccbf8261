package actors

import (
	"context"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/holon-actors/holon-actors/actors/agentstate"
	"github.com/holon-actors/holon-actors/actors/tasks"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/tools/task"
)

// Routing to private children. A supervised child's actor is its parent's
// child, so only the parent may start it: a request for a child with no
// running actor goes to its parent (forChild), which starts the child if
// it still supervises it, or hands the request back as for a plain agent
// (deliverFlat) when the child's supervision has ended.

// adoptChild registers the actor of a parent's child: requests for id go
// to pid.
func (r *Runtime) adoptChild(id, parent string, pid *actor.PID) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.pids[id] = pid
	r.children[id] = parent
}

// releaseChild forgets child id's actor who (if it is still the
// registered one) and reports whether its supervisor gave up on it.
func (r *Runtime) releaseChild(id string, who *actor.PID) (quarantined bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if pid, ok := r.pids[id]; ok && pid.Equal(who) {
		delete(r.pids, id)
	}
	delete(r.children, id)
	return r.terminating[id]
}

// deliverFlat hands p for agent id to the agents supervisor, to be
// delivered as to a plain agent, never through a parent.
func (r *Runtime) deliverFlat(id string, p pending) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	if r.closed {
		return
	}
	p.flat = true
	r.sys.Root.Send(r.supervisor, &deliverPending{id: id, p: p})
}

// maxChildRouting bounds how many parents a request is routed through
// before it is delivered to its agent as to a plain agent: deeper than
// any family SpawnAgent builds, and the end of a cycle of parents that a
// damaged journal could name.
const maxChildRouting = 32

// routingDepth is how many parents p has been routed through.
func routingDepth(p pending) int {
	n := 0
	for {
		f, ok := p.msg.(*forChild)
		if !ok {
			return n
		}
		n, p = n+1, f.p
	}
}

// deliverPending asks the agents supervisor to deliver p to agent id.
type deliverPending struct {
	id string
	p  pending
}

// parentOf returns the parent that supervises agent id when id is a
// private child ("" otherwise): from the live children, else from the
// agent_created event that opens its journal (an identity never changes,
// so a private child's parent is remembered; a plain agent's answer is
// not, and costs one read per activation).
func (r *Runtime) parentOf(id string) string {
	r.mu.RLock()
	parent, ok := r.children[id]
	r.mu.RUnlock()
	if ok {
		return parent
	}
	if v, ok := r.identity.Load(id); ok {
		return v.(string)
	}
	evs, err := r.deps.Store.Read(context.Background(), id, 1, 1, 1)
	if err != nil || len(evs) == 0 {
		return ""
	}
	p, err := evs[0].Decode()
	if err != nil {
		return ""
	}
	created, ok := p.(messages.AgentCreated)
	if !ok {
		return ""
	}
	if created.Visibility != messages.VisibilityPrivate || created.ParentAgentID == "" || created.ParentAgentID == id {
		return "" // not remembered: a plain agent costs no memory while dormant
	}
	if high, err := r.deps.Store.HighestSeq(context.Background(), created.ParentAgentID); err != nil || high == 0 {
		return "" // no such parent (a damaged journal): routing there would create it
	}
	r.identity.Store(id, created.ParentAgentID)
	return created.ParentAgentID
}

// tasksOf is agent id's task controller, nil without a task host.
func (r *Runtime) tasksOf(id string) *tasks.Agent {
	h, e := r.wire.tasks, r.deps.ToolEnv
	if h == nil {
		return nil
	}
	arts, _ := e.artifacts(id, r.deps.Secrets)
	return h.ForAgent(id, arts, e.budget(), e.stopGrace())
}

// Kick activates agent id if it is dormant and makes it take its next
// step, without sending it any work.
func (r *Runtime) Kick(id string) {
	if checkAgentPath(id) == nil {
		r.forward(id, &kick{})
	}
}

// ChildView is an operator's view of one private child through its
// supervision task: the task, and the child's live observability while it
// runs (nil when the child did not answer).
type ChildView struct {
	ChildAgentID      string                   `json:"child_agent_id"`
	SupervisionTaskID string                   `json:"supervision_task_id"`
	Summary           string                   `json:"summary"`
	TaskStatus        string                   `json:"task_status"`
	CreatedAt         time.Time                `json:"created_at"`
	UpdatedAt         time.Time                `json:"updated_at"`
	Observability     *task.ChildObservability `json:"child_observability,omitempty"`
	Supervision       task.ChildSupervision    `json:"child_supervision"`
}

// Children lists the private children agent id supervises through
// running tasks, oldest first, with recent finished ones too when all is
// set.
func (r *Runtime) Children(ctx context.Context, id string, all bool) ([]ChildView, error) {
	res, err := r.ask(ctx, id, &tasks.Records{})
	if err != nil {
		return nil, err
	}
	var out []ChildView
	for _, rec := range res.([]agentstate.TaskRecord) {
		if rec.Child == nil || (!all && rec.Terminal()) {
			continue
		}
		v := ChildView{ChildAgentID: rec.Child.ChildAgentID, SupervisionTaskID: rec.TaskID, Summary: rec.Summary,
			TaskStatus: rec.Status, CreatedAt: rec.CreatedAt, UpdatedAt: rec.UpdatedAt,
			Supervision: tasks.Supervision(id, rec)}
		v.Observability = r.childObservability(ctx, rec)
		out = append(out, v)
	}
	return out, nil
}
