// Package builtin assembles Holon's built-in tools and binds an agent's
// runtime pieces to a call's context, so the runtime registers them with
// one call and binds them per tool call with one more.
//
// builtin imports tools, its sub-packages and messages, and nothing else
// from this module.
package builtin

import (
	"context"

	"github.com/holon-actors/holon-actors/tools"
	"github.com/holon-actors/holon-actors/tools/agent"
	"github.com/holon-actors/holon-actors/tools/exec"
	"github.com/holon-actors/holon-actors/tools/patch"
	"github.com/holon-actors/holon-actors/tools/task"
)

// Config is the runtime's side of the built-in tools. Every field may be
// left zero when Bind supplies it per call instead.
type Config struct {
	Exec      exec.Config     // root, artifacts, task host, budget, yields
	Tasks     task.Controller // serves TaskStatus, TaskOutput, TaskInput, TaskStop, TaskList
	Inspector agent.Inspector // serves AgentGet
}

// Tools returns ExecCommand, ExecCommandBatch, ApplyPatch, the task tools
// and AgentGet, for tools.NewRegistry.
func Tools(cfg Config) []tools.Tool {
	budget := cfg.Exec.Budget
	if budget.Validate() != nil {
		budget = tools.DefaultBudget()
	}
	ts := []tools.Tool{
		exec.ExecCommand(cfg.Exec),
		exec.ExecCommandBatch(cfg.Exec),
		patch.ApplyPatch(patch.Config{Root: cfg.Exec.Root}),
		agent.AgentGet(cfg.Inspector),
	}
	return append(ts, task.Tools(cfg.Tasks, budget)...)
}

// Binding is one agent's runtime pieces for one tool call.
type Binding struct {
	Exec      exec.Config // its Root also serves ApplyPatch
	Tasks     task.Controller
	Inspector agent.Inspector
}

// Bind returns ctx carrying b for every built-in tool: the execution root,
// the command configuration, the task controller and the inspector. Zero
// fields are not bound.
func Bind(ctx context.Context, b Binding) context.Context {
	if b.Exec.Root.Dir() != "" {
		ctx = tools.WithExecRoot(ctx, b.Exec.Root)
	}
	if b.Exec.Artifacts != nil {
		ctx = exec.WithConfig(ctx, b.Exec)
	}
	if b.Tasks != nil {
		ctx = task.WithController(ctx, b.Tasks)
	}
	if b.Inspector != nil {
		ctx = agent.WithInspector(ctx, b.Inspector)
	}
	return ctx
}
