package actors

import (
	"context"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/holon-actors/holon-actors/actors/tasks"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/persistence"
	"github.com/holon-actors/holon-actors/tools"
	toolagent "github.com/holon-actors/holon-actors/tools/agent"
)

// Host is the runtime as an agent sees it: the only way an agent reaches
// other agents, the agents supervisor and the runtime's services. The
// runtime implements it (runtimeHost); an agent without a runtime (a unit
// test's) has none and reaches nobody.
type Host interface {
	// Forward sends msg to agent id, activating it; nothing answers.
	Forward(id string, msg any)
	// Exists reports whether agent id has a journal.
	Exists(ctx context.Context, id string) (bool, error)
	// AdoptChild records that parent's actor runs child id as pid.
	AdoptChild(id, parent string, pid *actor.PID)
	// ReleaseChild forgets child id's actor who; quarantined is true when
	// the child gave up and must not be started again.
	ReleaseChild(id string, who *actor.PID) (quarantined bool)
	// DeliverFlat hands p for agent id to the agents supervisor, which
	// runs it as a plain agent.
	DeliverFlat(id string, p pending)
	// Deliver sends agent id's operator notification to the notifier.
	Deliver(id string, n messages.OperatorNotification)
	// Quarantined reports a journal the store quarantined.
	Quarantined(q persistence.Quarantine)
	// Supervisor is the agents supervisor, the parent of every public
	// agent's actor.
	Supervisor() *actor.PID
	// Tasks is agent id's task controller, nil without a task host.
	Tasks(id string) *tasks.Agent
	// Inspector is AgentGet's view of the runtime for agent caller.
	Inspector(caller string) toolagent.Inspector
}

// wiring is what the runtime gives each agent's actor besides its
// AgentDeps configuration. The zero value is an agent on its own: no
// host, no timer service, the default runtime tools.
type wiring struct {
	host Host
	// tasks is the runtime's task host: its live tasks are not orphans.
	tasks *tasks.Host
	// sys and timers are the actor system and its timer service; timers
	// is nil when nobody arms the agent's timers.
	sys    *actor.ActorSystem
	timers *actor.PID
	// opTools are the runtime-owned tools (runtimetools.Tools), which the
	// agent runs itself (runtime_tools.go).
	opTools []tools.Tool
	// childStrategy supervises the actors of an agent's private children.
	childStrategy actor.SupervisorStrategy
	// view is the runtime's view of its agents' info (info_view.go).
	view *infoView
	// memory keeps the agents' memory indexes (memory_service.go).
	memory *memoryService
}

// toTimers sends a timers.Schedule or timers.Cancel to the timer service.
func (w wiring) toTimers(msg any) {
	if w.timers != nil {
		w.sys.Root.Send(w.timers, msg)
	}
}

// runtimeHost is the Runtime as an agent's Host.
type runtimeHost struct{ r *Runtime }

var _ Host = runtimeHost{}

func (h runtimeHost) Forward(id string, msg any) { h.r.forward(id, msg) }
func (h runtimeHost) Exists(ctx context.Context, id string) (bool, error) {
	return h.r.Exists(ctx, id)
}
func (h runtimeHost) AdoptChild(id, parent string, pid *actor.PID) { h.r.adoptChild(id, parent, pid) }
func (h runtimeHost) ReleaseChild(id string, who *actor.PID) bool  { return h.r.releaseChild(id, who) }
func (h runtimeHost) DeliverFlat(id string, p pending)             { h.r.deliverFlat(id, p) }
func (h runtimeHost) Deliver(id string, n messages.OperatorNotification) {
	h.r.deliver(id, n)
}
func (h runtimeHost) Quarantined(q persistence.Quarantine) { h.r.journalQuarantined(q) }
func (h runtimeHost) Supervisor() *actor.PID               { return h.r.supervisor }
func (h runtimeHost) Tasks(id string) *tasks.Agent         { return h.r.tasksOf(id) }
func (h runtimeHost) Inspector(caller string) toolagent.Inspector {
	return &inspector{rt: h.r, caller: caller, env: h.r.deps.ToolEnv}
}
