package control

import (
	"context"
	"io"

	"github.com/holon-actors/holon-actors/actors"
	"github.com/holon-actors/holon-actors/actors/agentstate"
	"github.com/holon-actors/holon-actors/messages"
)

// Runtime is what the control API asks of the agents' runtime: the
// methods its routes call, and nothing of how agents keep their state.
// *actors.Runtime implements it; tests of the HTTP edge can use a small
// fake. Errors are mapped to HTTP by runtimeError (actors' sentinels).
type Runtime interface {
	// Exists reports whether agent id exists, without activating it.
	Exists(ctx context.Context, id string) (bool, error)
	// List is every agent's info, dormant ones from their snapshots, in a
	// slice that is the caller's.
	List(ctx context.Context) ([]agentstate.AgentInfo, error)
	// Active lists the agents whose actors are running.
	Active() []string
	// Info is agent id's info; it activates (and so creates) the agent.
	Info(ctx context.Context, id string) (agentstate.AgentInfo, error)
	// View is agent id's state as shown outside actors.
	View(ctx context.Context, id string) (actors.AgentView, error)

	Admit(ctx context.Context, env messages.MessageEnvelope) (*actors.Admitted, error)
	WakeHint(ctx context.Context, id, source, reason string, contentful bool) (actors.WakeDisposition, error)
	Control(ctx context.Context, id string, op actors.ControlOp, reason string) (messages.AgentStatus, error)
	Interrupt(ctx context.Context, id, keep, reason string) (messages.AgentStatus, error)

	SetModel(ctx context.Context, id, model, reason string) (agentstate.AgentInfo, error)
	SetTokenBudget(ctx context.Context, id string, limit uint64, resetSpend bool, reason string) (agentstate.AgentInfo, error)
	SetCommandPolicy(ctx context.Context, id string, p *messages.CommandPolicy, reason string) error
	RetryModel(ctx context.Context, id string, cancel bool) (agentstate.AgentInfo, error)

	Suspensions(ctx context.Context, id string) ([]messages.SuspensionRecord, error)
	OpenSuspensions(ctx context.Context) ([]messages.SuspensionRecord, error)
	Respond(ctx context.Context, id string, a actors.Answer) (messages.InputResponse, error)
	CancelSuspension(ctx context.Context, id, suspensionID, by, reason string) (messages.InputResponse, error)
	Notifications(ctx context.Context, id string) ([]agentstate.NotificationView, error)

	Children(ctx context.Context, id string, all bool) ([]actors.ChildView, error)
	WorkItems(ctx context.Context, id string) ([]actors.WorkItemView, error)
	EnqueueWorkItem(ctx context.Context, id, objective string) (actors.WorkItemView, error)
	Timers(ctx context.Context, id string) ([]actors.TimerView, error)
	CreateTimer(ctx context.Context, id string, req actors.TimerRequest) (actors.TimerView, error)
	ChangeTimer(ctx context.Context, id string, op actors.TimerOp, timerID string) ([]actors.TimerView, error)

	Delete(ctx context.Context, id string, o actors.DeleteOptions) (actors.DeleteResult, error)
	CheckExport(ctx context.Context, id string) error
	Export(ctx context.Context, id string, w io.Writer) error
	Import(ctx context.Context, rd io.Reader, maxBytes int64) (actors.ImportResult, error)
}

var _ Runtime = (*actors.Runtime)(nil)
