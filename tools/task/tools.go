package task

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/tools"
)

// The tool names.
const (
	StatusName = "TaskStatus"
	OutputName = "TaskOutput"
	InputName  = "TaskInput"
	StopName   = "TaskStop"
	ListName   = "TaskList"
)

// Error kinds of the task tools.
const (
	KindUnknownTask     = "unknown_task"
	KindTaskUnavailable = "task_unavailable"
)

// Bounds of TaskOutput's block wait.
const (
	DefaultBlockTimeout = 30 * time.Second
	MaxBlockTimeout     = 10 * time.Minute
)

// StatusArgs are the arguments of TaskStatus and TaskStop.
type StatusArgs struct {
	TaskID string `json:"task_id" jsonschema:"the task id, such as a task_handle.task_id from ExecCommand"`
}

// StopArgs are the arguments of TaskStop.
type StopArgs = StatusArgs

// OutputArgs are the arguments of TaskOutput.
type OutputArgs struct {
	TaskID          string `json:"task_id" jsonschema:"the task id"`
	Block           bool   `json:"block,omitempty" jsonschema:"wait until the task finishes or timeout_ms passes"`
	TimeoutMS       int    `json:"timeout_ms,omitempty" jsonschema:"bound of the wait when block is true (default 30000)"`
	MaxOutputTokens int    `json:"max_output_tokens,omitempty" jsonschema:"output preview budget in estimated tokens"`
}

// AdjustSchema bounds the numbers.
func (OutputArgs) AdjustSchema(s *jsonschema.Schema) {
	zero := 0.0
	s.Properties["timeout_ms"].Minimum = &zero
	s.Properties["max_output_tokens"].Minimum = &zero
}

// InputArgs are the arguments of TaskInput.
type InputArgs struct {
	TaskID     string `json:"task_id" jsonschema:"the task id"`
	Input      string `json:"input,omitempty" jsonschema:"text to send; include \\n to end a line"`
	CloseInput bool   `json:"close_input,omitempty" jsonschema:"end the input after sending (end of file)"`
}

// Validate needs something to do.
func (a *InputArgs) Validate() error {
	if a.Input == "" && !a.CloseInput {
		return &tools.FieldError{Field: "input", Problem: "is empty and close_input is false", Hint: "give the text to send in input, or set close_input"}
	}
	return nil
}

// ListArgs are the arguments of TaskList.
type ListArgs struct {
	IncludeTerminal bool `json:"include_terminal,omitempty" jsonschema:"list finished tasks too"`
}

// Tools returns the five task tools. c serves calls whose context has no
// Controller bound (WithController); it may be nil when the runtime always
// binds one. budget bounds TaskOutput previews.
func Tools(c Controller, budget tools.Budget) []tools.Tool {
	return []tools.Tool{
		tools.Typed(StatusName, "Show a task's lifecycle status and command metadata (no output; use TaskOutput).",
			func(ctx context.Context, a StatusArgs) tools.Result { return status(ctx, c, a) }),
		tools.Typed(OutputName, "Read a task's output: a bounded head-and-tail preview with the full output as an artifact path. "+
			"block=true waits for the task to finish, up to timeout_ms.",
			func(ctx context.Context, a OutputArgs) tools.Result { return output(ctx, c, budget, a) }),
		tools.Typed(InputName, "Send text to the stdin or terminal of a running task started with accepts_input=true.",
			func(ctx context.Context, a InputArgs) tools.Result { return input(ctx, c, a) }),
		tools.Typed(StopName, "Stop a running task: gracefully (SIGTERM), then forcibly (SIGKILL).",
			func(ctx context.Context, a StopArgs) tools.Result { return stop(ctx, c, a) }),
		tools.Typed(ListName, "List this agent's tasks.",
			func(ctx context.Context, a ListArgs) tools.Result { return list(ctx, c, a) }),
	}
}

func controller(ctx context.Context, c Controller) Controller {
	if bound, ok := ctx.Value(controllerKey{}).(Controller); ok && bound != nil {
		return bound
	}
	return c
}

func status(ctx context.Context, c Controller, a StatusArgs) tools.Result {
	if c = controller(ctx, c); c == nil {
		return noController(StatusName)
	}
	s, err := c.Status(ctx, a.TaskID)
	if err != nil {
		return failure(StatusName, a.TaskID, err)
	}
	return tools.Build(tools.SuccessEnvelope(StatusName, fmt.Sprintf("task %s is %s", s.TaskID, s.Status), map[string]Snapshot{"task": s}), StatusReceipt)
}

func output(ctx context.Context, c Controller, budget tools.Budget, a OutputArgs) tools.Result {
	if c = controller(ctx, c); c == nil {
		return noController(OutputName)
	}
	timeout := DefaultBlockTimeout
	switch {
	case int64(a.TimeoutMS) >= MaxBlockTimeout.Milliseconds():
		timeout = MaxBlockTimeout
	case a.TimeoutMS > 0:
		timeout = time.Duration(a.TimeoutMS) * time.Millisecond
	}
	r, err := c.Output(ctx, OutputRequest{TaskID: a.TaskID, Block: a.Block, Timeout: timeout, MaxChars: budget.Chars(a.MaxOutputTokens)})
	if err != nil {
		return failure(OutputName, a.TaskID, err)
	}
	summary := fmt.Sprintf("task %s is %s (retrieval %s)", r.Task.TaskID, r.Task.Status, r.RetrievalStatus)
	return tools.Build(tools.SuccessEnvelope(OutputName, summary, r), OutputReceipt)
}

func input(ctx context.Context, c Controller, a InputArgs) tools.Result {
	if c = controller(ctx, c); c == nil {
		return noController(InputName)
	}
	r, err := c.Input(ctx, a.TaskID, a.Input, a.CloseInput)
	if err != nil {
		return failure(InputName, a.TaskID, err)
	}
	return tools.Build(tools.SuccessEnvelope(InputName, r.SummaryText, r), InputReceipt)
}

func stop(ctx context.Context, c Controller, a StopArgs) tools.Result {
	if c = controller(ctx, c); c == nil {
		return noController(StopName)
	}
	r, err := c.Stop(ctx, a.TaskID)
	if err != nil {
		return failure(StopName, a.TaskID, err)
	}
	return tools.Build(tools.SuccessEnvelope(StopName, fmt.Sprintf("task %s is %s", r.Task.TaskID, r.Task.Status), r), StopReceipt)
}

func list(ctx context.Context, c Controller, a ListArgs) tools.Result {
	if c = controller(ctx, c); c == nil {
		return noController(ListName)
	}
	ts, err := c.List(ctx, a.IncludeTerminal)
	if err != nil {
		return failure(ListName, "", err)
	}
	if ts == nil {
		ts = []Snapshot{}
	}
	return tools.Build(tools.SuccessEnvelope(ListName, fmt.Sprintf("%d task%s", len(ts), plural(len(ts))), ListResult{Tasks: ts}), ListReceipt)
}

func failure(tool, taskID string, err error) tools.Result {
	if errors.Is(err, ErrUnknownTask) {
		return tools.Failure(tool, messages.ToolError, tools.ToolError{
			Kind: KindUnknownTask, Message: fmt.Sprintf("there is no task %q for this agent", taskID),
			Details:      mustJSON(map[string]string{"field": "task_id", "task_id": taskID}),
			RecoveryHint: "use TaskList to see this agent's tasks and their ids",
		})
	}
	return tools.Failure(tool, messages.ToolError, tools.ToolError{
		Kind: KindTaskUnavailable, Message: fmt.Sprintf("%s could not reach task %s: %v", tool, taskID, err),
		RecoveryHint: "retry in a moment; if it persists, check TaskStatus", Retryable: true,
	})
}

func noController(tool string) tools.Result {
	return tools.Failure(tool, messages.ToolError, tools.ToolError{
		Kind: "runtime_misconfigured", Message: tool + " has no task controller",
		RecoveryHint: "this is a runtime problem, not a problem with the call; tell the operator",
	})
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
