package exec

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/tools"
)

// Config is what the command tools need from the runtime.
type Config struct {
	Root      tools.ExecRoot     // commands run inside it
	Artifacts *tools.ArtifactDir // output files go under exec/<id>/
	// Tasks receives commands still running at their yield deadline. Nil
	// means no promotion: such a command is stopped and reported as a
	// command_timeout failure.
	Tasks  TaskHost
	Budget tools.Budget // zero means tools.DefaultBudget
	// DefaultYield applies when a call gives no yield_time_ms; MaxYield
	// caps it. Zero means 10s and 10 minutes.
	DefaultYield, MaxYield time.Duration
	// StopGrace is how long a stopped command gets between SIGTERM and
	// SIGKILL; zero means 2s.
	StopGrace time.Duration
	// NewID names a command's output directory; nil is messages.NewID("cmd").
	NewID func() string
	// Env is the environment commands start with; nil means this
	// process's. The runtime passes its own with its secrets removed.
	Env []string
	// Policy, when set, is checked before a command starts (see
	// messages.CommandPolicy); nil allows every command.
	Policy *messages.CommandPolicy
	// Launches, when set, makes every command's identity durable before
	// the command may run: commands start gated (StartGated), their Launch
	// is recorded, then they are released. A command whose Launch cannot
	// be recorded never runs.
	Launches LaunchRecorder
}

// LaunchRecorder makes a command's Launch durable (the runtime journals
// it with the tool call that started it). It must be safe for concurrent
// use.
type LaunchRecorder interface {
	RecordLaunch(ctx context.Context, l Launch) error
}

// ErrNoConfig is returned when a command tool is called with neither a
// configured nor a context-bound execution root and artifact directory.
var ErrNoConfig = errors.New("exec: no execution root or artifact directory bound")

type configKey struct{}

// WithConfig binds cfg to ctx: a command tool called with ctx uses it
// instead of the Config it was built with. The runtime binds each agent's
// execution root, artifact directory and task host this way, so one tool
// value serves every agent.
func WithConfig(ctx context.Context, cfg Config) context.Context {
	return context.WithValue(ctx, configKey{}, cfg)
}

// resolve returns the Config for a call: the context-bound one, else
// base, with defaults filled in.
func resolve(ctx context.Context, base Config) (Config, error) {
	cfg := base
	if c, ok := ctx.Value(configKey{}).(Config); ok {
		cfg = c
	}
	if r, ok := tools.ExecRootFrom(ctx); ok {
		cfg.Root = r
	}
	if cfg.Root.Dir() == "" || cfg.Artifacts == nil {
		return cfg, ErrNoConfig
	}
	if cfg.Budget.Validate() != nil {
		cfg.Budget = tools.DefaultBudget()
	}
	if cfg.DefaultYield <= 0 {
		cfg.DefaultYield = 10 * time.Second
	}
	if cfg.MaxYield <= 0 {
		cfg.MaxYield = 10 * time.Minute
	}
	if cfg.StopGrace <= 0 {
		cfg.StopGrace = 2 * time.Second
	}
	if cfg.NewID == nil {
		cfg.NewID = func() string { return messages.NewID("cmd") }
	}
	return cfg, nil
}

func (c Config) yield(ms int) time.Duration {
	if ms <= 0 {
		return c.DefaultYield
	}
	if int64(ms) >= c.MaxYield.Milliseconds() {
		return c.MaxYield
	}
	return time.Duration(ms) * time.Millisecond
}

func noConfig(tool string, err error) tools.Result {
	return tools.Failure(tool, messages.ToolError, tools.ToolError{
		Kind:         "runtime_misconfigured",
		Message:      fmt.Sprintf("%s cannot run: %v", tool, err),
		RecoveryHint: "this is a runtime problem, not a problem with the call; tell the operator",
	})
}

// ConfigFrom returns the Config bound to ctx by WithConfig, for other
// tools that keep artifacts or honour the output budget the same way.
func ConfigFrom(ctx context.Context) (Config, bool) {
	c, ok := ctx.Value(configKey{}).(Config)
	return c, ok
}
