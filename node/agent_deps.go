package node

import (
	"os"
	"slices"

	"github.com/jonboulle/clockwork"
	"github.com/rs/zerolog"

	"github.com/holon-actors/holon-actors/actors"
	"github.com/holon-actors/holon-actors/actors/agentstate"
	"github.com/holon-actors/holon-actors/persistence"
	"github.com/holon-actors/holon-actors/providers/catalog"
	"github.com/holon-actors/holon-actors/secrets"
)

// AgentOptions is what every agent of a runtime is given, as `run` and
// `once` configure it. Deps turns it into actors.AgentDeps.
type AgentOptions struct {
	// Model is the model configuration: its token_budget,
	// loop_breaker_repeats, system_notifications and command_policy apply
	// to every agent, and its key variables are kept out of the agents'
	// commands' environment.
	Model        catalog.Config
	SystemPrompt string
	DefaultAgent string
	// Home is the agents' homes' root; Workspace, when set, the execution
	// root of every agent; Worktrees, when set, where worktrees go.
	Home, Workspace, Worktrees string
	// AgentsDir is the user's agents directory (user-scope skills).
	AgentsDir string
	// ExtraEnv is added to the agents' commands' environment.
	ExtraEnv []string
	// Secrets are scrubbed from the journal, snapshots, artifacts and logs.
	Secrets *secrets.Registry
	// Notifier, when set, is told of questions, failed turns and
	// quarantined agents; NotifyTool offers agents the NotifyOperator tool.
	Notifier   actors.Notifier
	NotifyTool bool
	// WorkItemReminder, Compaction and ModelRetry are the agents' policies
	// (the zero ModelRetry fails a turn at its first model failure).
	WorkItemReminder actors.WorkItemReminder
	Compaction       agentstate.Compaction
	ModelRetry       actors.ModelRetry
	// Timers bounds each agent's created timers.
	Timers agentstate.TimerLimits
}

// Deps builds the agents' dependencies over store and provider, logging to
// log: the built-in tools and their output budget, a real clock, and the
// commands' environment (this process's, without the model keys, plus
// ExtraEnv). An unusable built-in budget matches ErrConfig.
func (o AgentOptions) Deps(store persistence.Store, provider *ModelProvider, log zerolog.Logger) (actors.AgentDeps, error) {
	budget, err := actors.BuiltinBudget()
	if err != nil {
		return actors.AgentDeps{}, invalid(err)
	}
	toolset, err := actors.BuiltinTools(budget)
	if err != nil {
		return actors.AgentDeps{}, err
	}
	env := append(slices.Clip(actors.CommandEnv(os.Environ(), o.Model.KeyEnvs()...)), o.ExtraEnv...)
	return actors.AgentDeps{Store: store, Provider: provider, Tools: toolset, Clock: clockwork.NewRealClock(),
		Log: log, SystemPrompt: o.SystemPrompt, DefaultAgentID: o.DefaultAgent,
		ToolEnv: actors.ToolEnv{Home: o.Home, Workspace: o.Workspace, Worktrees: o.Worktrees, AgentsDir: o.AgentsDir, Budget: budget, Env: env},
		Secrets: o.Secrets, CheckModel: provider.Check, Notifier: o.Notifier, NotifyOperatorTool: o.NotifyTool,
		NotificationFilter: o.Model.SystemNotifications, DefaultTokenBudget: o.Model.TokenBudget,
		LoopBreakerRepeats: o.Model.LoopBreakerRepeats, WorkItemReminder: o.WorkItemReminder,
		Compaction: o.Compaction, ModelRetry: o.ModelRetry, Timers: o.Timers, CommandPolicies: o.Model.CommandPolicy}, nil
}
