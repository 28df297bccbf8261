package exec

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/tools"
)

// ExecCommandName is the model-facing name of the ExecCommand tool.
const ExecCommandName = "ExecCommand"

// The dispositions of an ExecCommand result; exactly one per result.
const (
	DispositionCompleted      = "completed"
	DispositionPromoted       = "promoted_to_task"
	DispositionAlreadyRunning = "already_running"
)

// The duplicate policies.
const (
	ReuseRunning = "reuse_running"
	StartNew     = "start_new"
)

// Error kinds of the command tools.
const (
	KindSpawnFailed    = "spawn_failed"
	KindCommandTimeout = "command_timeout"
	KindPromotion      = "promotion_failed"
)

// ExecArgs are the arguments of ExecCommand.
type ExecArgs struct {
	Cmd             string `json:"cmd" jsonschema:"shell command line to run"`
	Workdir         string `json:"workdir,omitempty" jsonschema:"working directory relative to the execution root; default the root"`
	Shell           string `json:"shell,omitempty" jsonschema:"shell to run cmd with, such as bash or sh; default bash"`
	Login           bool   `json:"login,omitempty" jsonschema:"run the shell as a login shell"`
	TTY             bool   `json:"tty,omitempty" jsonschema:"run on a pseudo-terminal; stdout and stderr become one stream"`
	YieldTimeMS     int    `json:"yield_time_ms,omitempty" jsonschema:"how long to wait inline before the command becomes a background task (default 10000)"`
	MaxOutputTokens int    `json:"max_output_tokens,omitempty" jsonschema:"output budget in estimated tokens (default 8000)"`
	AcceptsInput    bool   `json:"accepts_input,omitempty" jsonschema:"keep stdin (or the terminal) open for TaskInput"`
	DuplicatePolicy string `json:"duplicate_policy,omitempty" jsonschema:"reuse_running (default) answers with the running task of the same command; start_new starts another"`
}

// AdjustSchema adds the enum and bounds the struct cannot state.
func (ExecArgs) AdjustSchema(s *jsonschema.Schema) {
	s.Properties["duplicate_policy"].Enum = []any{ReuseRunning, StartNew}
	zero := 0.0
	s.Properties["yield_time_ms"].Minimum = &zero
	s.Properties["max_output_tokens"].Minimum = &zero
	s.Properties["cmd"].MinLength = new(1)
}

// Validate refuses a blank command.
func (a *ExecArgs) Validate() error {
	if shortCmd(a.Cmd, 1) == "" {
		return &tools.FieldError{Field: "cmd", Problem: "is blank", Hint: "give the shell command line to run in cmd"}
	}
	return nil
}

// ExecResult is the canonical result of ExecCommand. Disposition decides
// which fields are set: completion fields for completed, task fields for
// promoted_to_task and already_running, never both.
type ExecResult struct {
	Disposition string `json:"disposition"`
	// Note is said first: how the result came to be, when unusual (a
	// command that finished while the runtime was down).
	Note string `json:"note,omitempty"`

	// completed
	ExitStatus      *int                `json:"exit_status,omitempty"`
	Signal          string              `json:"signal,omitempty"`
	StdoutPreview   *string             `json:"stdout_preview,omitempty"`
	StderrPreview   *string             `json:"stderr_preview,omitempty"`
	OutputPreview   *string             `json:"output_preview,omitempty"` // tty: one combined stream
	Truncated       *bool               `json:"truncated,omitempty"`
	StdoutTruncated bool                `json:"stdout_truncated,omitempty"`
	StderrTruncated bool                `json:"stderr_truncated,omitempty"`
	Artifacts       []tools.ArtifactRef `json:"artifacts,omitempty"`
	StdoutArtifact  *int                `json:"stdout_artifact,omitempty"`
	StderrArtifact  *int                `json:"stderr_artifact,omitempty"`
	OutputArtifact  *int                `json:"output_artifact,omitempty"`
	DurationMS      *int64              `json:"duration_ms,omitempty"`

	// promoted_to_task and already_running
	TaskHandle             *TaskHandle      `json:"task_handle,omitempty"`
	InitialOutputPreview   *string          `json:"initial_output_preview,omitempty"`
	InitialOutputTruncated *bool            `json:"initial_output_truncated,omitempty"`
	Command                *CommandIdentity `json:"command,omitempty"`
}

// ExecCommand is the ExecCommand tool. cfg is used unless a call's
// context carries another (WithConfig).
func ExecCommand(cfg Config) tools.Tool {
	return tools.Typed(ExecCommandName,
		"Run a shell command in the execution root. It runs inline until yield_time_ms, then continues as a background "+
			"command_task (see TaskOutput, TaskInput, TaskStop) instead of being killed. Output beyond the budget is "+
			"truncated head and tail, with the full output in artifact files.",
		func(ctx context.Context, a ExecArgs) tools.Result { return runExec(ctx, cfg, a) })
}

func runExec(ctx context.Context, base Config, a ExecArgs) tools.Result {
	cfg, err := resolve(ctx, base)
	if err != nil {
		return noConfig(ExecCommandName, err)
	}
	spec, fail := specFor(cfg, ExecCommandName, a.Cmd, a.Workdir, a.Shell, a.Login)
	if fail != nil {
		return *fail
	}
	spec.TTY, spec.AcceptsInput = a.TTY, a.AcceptsInput
	id := Identity(spec)
	if a.DuplicatePolicy != StartNew && cfg.Tasks != nil {
		if h, ok := cfg.Tasks.FindRunning(ctx, id.CmdDigest, id.Workdir); ok {
			return alreadyRunning(h, id)
		}
	}
	p, err := launch(ctx, cfg, spec)
	if err != nil {
		return spawnFailure(ExecCommandName, spec, err)
	}
	chars := cfg.Budget.Chars(a.MaxOutputTokens)
	_, exited, werr := p.WaitFor(ctx, cfg.yield(a.YieldTimeMS))
	if exited {
		defer p.Close()
		return completed(cfg, p, chars)
	}
	if werr != nil {
		return cancelled(cfg, p)
	}
	return promote(ctx, cfg, p, id, chars)
}

// cancelled stops the command of a call cancelled while it ran inline (the
// turn was interrupted or stopped): its process group is killed, never
// handed to the task host, since nobody waits for its result any more.
func cancelled(cfg Config, p *Process) tools.Result {
	stopAndClose(cfg, p)
	return tools.Failure(ExecCommandName, messages.ToolInterrupted, tools.ToolError{
		Kind: tools.KindInterrupted, Message: "the call was cancelled while the command ran; the command was stopped",
		RecoveryHint: "check whether its effect happened before repeating it",
	})
}

// launch starts spec. With a LaunchRecorder it starts gated and releases
// the command only once its Launch is durable; a command whose Launch
// could not be recorded is closed without having run.
func launch(ctx context.Context, cfg Config, spec ProcessSpec) (*Process, error) {
	id := cfg.NewID()
	if cfg.Launches == nil {
		return Start(spec, cfg.Artifacts, id)
	}
	p, err := StartGated(spec, cfg.Artifacts, id)
	if err != nil {
		return nil, err
	}
	if err := cfg.Launches.RecordLaunch(ctx, p.Launch(id)); err != nil {
		_ = p.Close()
		return nil, fmt.Errorf("%w: it was not run: %w", ErrLaunchNotRecorded, err)
	}
	if err := p.Release(); err != nil {
		_ = p.Close()
		return nil, err
	}
	return p, nil
}

// specFor resolves the working directory and shell of a call, or returns
// the failure the model sees.
func specFor(cfg Config, tool, cmd, workdir, shell string, login bool) (ProcessSpec, *tools.Result) {
	dir, err := cfg.Root.Workdir("workdir", workdir)
	var pe *tools.PathError
	switch {
	case errors.As(err, &pe):
		r := tools.Failure(tool, messages.ToolError, pe.ToolError())
		return ProcessSpec{}, &r
	case err != nil:
		r := tools.Failure(tool, messages.ToolError, tools.ToolError{
			Kind: KindSpawnFailed, Message: fmt.Sprintf("working directory %q does not exist or is not a directory", workdir),
			Details:      mustJSON(map[string]string{"field": "workdir", "workdir": workdir, "execution_root": cfg.Root.Dir()}),
			RecoveryHint: "omit workdir, or create the directory first (mkdir -p) and call again",
		})
		return ProcessSpec{}, &r
	}
	spec := ProcessSpec{Cmd: cmd, Dir: dir, Shell: shell, Login: login, Env: cfg.Env}
	if r := checkPolicy(cfg, tool, spec); r != nil {
		return ProcessSpec{}, r
	}
	return spec, nil
}

func spawnFailure(tool string, spec ProcessSpec, err error) tools.Result {
	hint := "check the command and working directory and call again"
	details := map[string]string{"cmd": spec.Cmd, "workdir": spec.Dir, "error": err.Error()}
	if errors.Is(err, ErrNoShell) {
		details["field"] = "shell"
		details["shell"] = spec.Shell
		hint = "use an installed shell such as bash or sh, or omit shell"
	}
	return tools.Failure(tool, messages.ToolError, tools.ToolError{
		Kind: KindSpawnFailed, Message: "the command could not be started: " + err.Error(),
		Details: mustJSON(details), RecoveryHint: hint,
	})
}

func alreadyRunning(h TaskHandle, id CommandIdentity) tools.Result {
	res := ExecResult{Disposition: DispositionAlreadyRunning, TaskHandle: &h, Command: &id}
	return tools.Build(tools.SuccessEnvelope(ExecCommandName, "command is already running as task "+h.TaskID, res), Receipt)
}

// completed builds the result of a command that exited inline: bounded
// previews, the full output kept as artifacts only for truncated streams,
// and untruncated files removed.
func completed(cfg Config, p *Process, chars int) tools.Result {
	exit, dur, _ := p.Exit()
	res := ExecResult{Disposition: DispositionCompleted, DurationMS: new(dur.Milliseconds())}
	if exit.Signal != "" {
		res.Signal = exit.Signal
	}
	res.ExitStatus = new(exit.Code)
	out, err := collectOutput(p, chars)
	if err != nil {
		return tools.Failure(ExecCommandName, messages.ToolError, tools.ToolError{
			Kind: "output_unreadable", Message: fmt.Sprintf("the command %s but its output could not be read: %v", exit, err),
			RecoveryHint: "run the command again; if it keeps failing, tell the operator",
		})
	}
	out.apply(&res)
	summary := "command " + exit.String()
	return tools.Build(tools.SuccessEnvelope(ExecCommandName, summary, res), Receipt)
}

// promote hands a still-running command to the task host. Without a host,
// or when the host refuses, the command is stopped and the call fails.
func promote(ctx context.Context, cfg Config, p *Process, id CommandIdentity, chars int) tools.Result {
	initial, truncated := initialOutput(p, chars)
	if cfg.Tasks != nil {
		if err := p.Spill(); err != nil {
			stopAndClose(cfg, p)
			return tools.Failure(ExecCommandName, messages.ToolError, tools.ToolError{
				Kind: KindPromotion, Message: "the command outlived its yield time but its output could not be moved to a file: " + err.Error(),
				RecoveryHint: "the command was stopped; check the disk of the artifact directory, then run it again", Retryable: true,
			})
		}
		h, err := cfg.Tasks.Promote(context.WithoutCancel(ctx), Promotion{Process: p, Identity: id, InitialOutput: initial})
		if err == nil {
			res := ExecResult{Disposition: DispositionPromoted, TaskHandle: &h, InitialOutputPreview: &initial,
				InitialOutputTruncated: &truncated, Command: &id}
			return tools.Build(tools.SuccessEnvelope(ExecCommandName, "command promoted to managed task "+h.TaskID, res), Receipt)
		}
		stopAndClose(cfg, p)
		return tools.Failure(ExecCommandName, messages.ToolError, tools.ToolError{
			Kind: KindPromotion, Message: "the command outlived its yield time and could not become a background task: " + err.Error(),
			RecoveryHint: "the command was stopped; run it again with a longer yield_time_ms", Retryable: true,
		})
	}
	stopAndClose(cfg, p)
	return tools.Failure(ExecCommandName, messages.ToolError, tools.ToolError{
		Kind:         KindCommandTimeout,
		Message:      "the command did not finish within its yield time and was stopped (background tasks are not available here)",
		Details:      mustJSON(map[string]any{"cmd": id.Cmd, "initial_output": initial}),
		RecoveryHint: "raise yield_time_ms, or make the command finish sooner",
	})
}

func stopAndClose(cfg Config, p *Process) {
	ctx, cancel := context.WithTimeout(context.Background(), cfg.StopGrace+10*time.Second)
	defer cancel()
	_, _ = p.Stop(ctx, cfg.StopGrace)
	_ = p.Close()
}
