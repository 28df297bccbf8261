package tui

import (
	"context"

	"github.com/holon-actors/holon-actors/actors"
	"github.com/holon-actors/holon-actors/actors/agentstate"
	"github.com/holon-actors/holon-actors/control"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/providers"
)

// Control is what the console needs of the control surface. A
// *control.Client over the unix socket or TCP satisfies it; another
// transport only has to answer the same calls.
type Control interface {
	RuntimeStatus(ctx context.Context) (control.RuntimeStatus, error)
	Agents(ctx context.Context) ([]agentstate.AgentInfo, error)
	Status(ctx context.Context, id string) (control.AgentSummary, error)
	DefaultStatus(ctx context.Context) (control.AgentSummary, error)
	State(ctx context.Context, id string) (control.AgentStateSnapshot, error)
	LastEvents(ctx context.Context, id string, n int) (control.EventsPage, error)
	Follow(ctx context.Context, id string, after uint64, f func(control.StreamEvent) error) (uint64, error)
	Prompt(ctx context.Context, id string, req control.PromptRequest) (control.PromptResponse, error)
	Interrupt(ctx context.Context, id, keep, reason string) (control.LifecycleResponse, error)
	Lifecycle(ctx context.Context, id string, op actors.ControlOp, reason string) (control.LifecycleResponse, error)
	SetModel(ctx context.Context, id, model, reason string) (agentstate.AgentInfo, error)
	Transcript(ctx context.Context, id string) ([]providers.Item, error)
	Children(ctx context.Context, id string, all bool) ([]actors.ChildView, error)
	WorkItems(ctx context.Context, id string) ([]actors.WorkItemView, error)
	Timers(ctx context.Context, id string) ([]actors.TimerView, error)
	Suspensions(ctx context.Context, id string, openOnly bool) ([]messages.SuspensionRecord, error)
	OpenSuspensions(ctx context.Context) ([]messages.SuspensionRecord, error)
	Respond(ctx context.Context, id, sid string, req control.RespondRequest) (control.SuspensionResponse, error)
}

var _ Control = (*control.Client)(nil)
