package actors

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/holon-actors/holon-actors/persistence"
	"github.com/holon-actors/holon-actors/secrets"
	"github.com/holon-actors/holon-actors/tools"
	"github.com/holon-actors/holon-actors/tools/builtin"
	"github.com/holon-actors/holon-actors/tools/exec"
)

// ToolEnv is where and how the built-in tools run for each agent. Every
// tool call of an agent is bound (builtin.Bind) to the agent's execution
// root, its artifact directory, its task controller (the runtime's tasks
// supervisor) and an inspector.
type ToolEnv struct {
	// Home is HOLON_HOME. Each agent's home, persistence.AgentHome(Home,
	// id), created 0700, is its default execution root and holds its
	// artifacts. Empty binds nothing: the built-in tools then answer
	// runtime_misconfigured.
	Home string
	// Workspace, when set, is every agent's execution root instead of its
	// home. It must exist.
	Workspace string
	// AgentsDir is the user's agents directory (~/.agents): its skills/
	// are the user-scope skills the default agent sees. Empty: none.
	AgentsDir string
	// Worktrees is where worktree-mode children's worktrees are made;
	// empty means Home/worktrees. (once keeps them out of its throwaway
	// home, so a retained worktree outlives the run.)
	Worktrees string
	// Budget bounds tool output; the zero value means BuiltinBudget().
	Budget tools.Budget
	// DefaultYield is how long a command runs inline before it is promoted
	// to a command task; 0 means exec's default (10s).
	DefaultYield time.Duration
	// StopGrace is the time between SIGTERM and SIGKILL when a task is
	// stopped; 0 means 2s.
	StopGrace time.Duration
	// Env is the environment of agents' commands; nil means this process's
	// environment without the runtime's own secrets (CommandEnv).
	Env []string
}

// BuiltinBudget is the default tool output budget with the
// HOLON_DEFAULT_TOOL_OUTPUT_TOKENS and HOLON_MAX_TOOL_OUTPUT_TOKENS
// overrides applied; an invalid override is an error naming it.
func BuiltinBudget() (tools.Budget, error) {
	return tools.DefaultBudget().WithEnv(os.Getenv)
}

// BuiltinTools returns the registry of the built-in tools (ExecCommand,
// ExecCommandBatch, ApplyPatch, the task tools and AgentGet) for
// AgentDeps.Tools. They carry no runtime pieces: every call is bound to
// its agent's. The runtime adds its own Sleep tool to every agent.
func BuiltinTools(budget tools.Budget) (*tools.Registry, error) {
	return tools.NewRegistry(builtin.Tools(builtin.Config{Exec: exec.Config{Budget: budget}})...)
}

func (e ToolEnv) budget() tools.Budget {
	if e.Budget.Validate() == nil {
		return e.Budget
	}
	if b, err := BuiltinBudget(); err == nil {
		return b
	}
	return tools.DefaultBudget()
}

func (e ToolEnv) stopGrace() time.Duration {
	if e.StopGrace > 0 {
		return e.StopGrace
	}
	return 2 * time.Second
}

// artifacts returns agent id's artifact directory, which scrubs secrets
// from what tools write; nil when there is no home.
func (e ToolEnv) artifacts(id string, secrets *secrets.Registry) (*tools.ArtifactDir, error) {
	if e.Home == "" {
		return nil, nil
	}
	home, err := persistence.AgentHome(e.Home, id)
	if err != nil {
		return nil, err
	}
	d, err := tools.NewArtifactDir(persistence.ArtifactsDir(home))
	if err != nil {
		return nil, err
	}
	if secrets.Len() == 0 {
		return d, nil // nothing to scrub: spare Scrub reading every output file
	}
	return d.WithRedact(secrets.RedactBytes), nil
}

// root returns agent id's execution root: own (its worktree) when set,
// else the workspace, else its home, created (0700) then.
func (e ToolEnv) root(id, own string) (tools.ExecRoot, error) {
	dir := e.Workspace
	if own != "" {
		dir = own
	}
	if dir == "" {
		home, err := persistence.AgentHome(e.Home, id)
		if err != nil {
			return tools.ExecRoot{}, err
		}
		if err := os.MkdirAll(home, 0o700); err != nil {
			return tools.ExecRoot{}, fmt.Errorf("agent home: %w", err)
		}
		dir = home
	}
	return tools.NewExecRoot(dir)
}

// binding is agent id's runtime pieces for one tool call; own is its
// execution root override (AgentState.ExecutionRoot).
func (e ToolEnv) binding(id, own string, secrets *secrets.Registry, h Host) (builtin.Binding, error) {
	if e.Home == "" {
		return builtin.Binding{}, nil
	}
	root, err := e.root(id, own)
	if err != nil {
		return builtin.Binding{}, fmt.Errorf("tool binding of %s: %w", id, err)
	}
	arts, err := e.artifacts(id, secrets)
	if err != nil {
		return builtin.Binding{}, fmt.Errorf("tool binding of %s: %w", id, err)
	}
	env := e.Env
	if env == nil {
		env = CommandEnv(os.Environ())
	}
	b := builtin.Binding{Exec: exec.Config{Root: root, Artifacts: arts, Budget: e.budget(),
		DefaultYield: e.DefaultYield, StopGrace: e.stopGrace(), Env: env}}
	if h == nil {
		return b, nil
	}
	if ts := h.Tasks(id); ts != nil {
		b.Exec.Tasks, b.Tasks, b.Exec.Launches = ts, ts, ts
		b.Inspector = h.Inspector(id)
	}
	return b, nil
}

// toolContext returns ctx bound to the agent's tool binding. A binding
// that cannot be made is logged; the tools then answer
// runtime_misconfigured.
func (a *agent) toolContext(ctx context.Context) context.Context {
	b, err := a.deps.ToolEnv.binding(a.id, a.executionRoot(), a.deps.Secrets, a.wire.host)
	if err != nil {
		a.deps.Log.Error().Err(err).Str("agent_id", a.id).Msg("tools not bound")
		return ctx
	}
	b.Exec.Policy = a.commandPolicy()
	return builtin.Bind(ctx, b)
}

// CommandEnv is env without the runtime's own secrets, for the commands
// agents run: the control token (HOLON_CONTROL_TOKEN), the model
// providers' keys (OPENAI_API_KEY, ANTHROPIC_API_KEY, HOLON_*_API_KEY) and
// the extra variables named (a config file's api_key_env). An agent that
// needs a credential gets it from its workspace, not by inheriting the
// daemon's.
func CommandEnv(env []string, extra ...string) []string {
	return secrets.Names{Extra: extra}.Strip(env)
}
