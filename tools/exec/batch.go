package exec

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/holon-actors/holon-actors/tools"
)

// ExecCommandBatchName is the model-facing name of ExecCommandBatch.
const ExecCommandBatchName = "ExecCommandBatch"

// MaxBatchItems bounds the commands of one batch.
const MaxBatchItems = 16

// Item statuses of a batch.
const (
	ItemCompleted = "completed"
	ItemFailed    = "failed"
)

// BatchItemArgs is one restricted command of a batch: no tty, no input,
// no promotion.
type BatchItemArgs struct {
	Cmd             string `json:"cmd" jsonschema:"shell command line to run"`
	Workdir         string `json:"workdir,omitempty" jsonschema:"working directory relative to the execution root"`
	Shell           string `json:"shell,omitempty" jsonschema:"shell to run cmd with; default bash"`
	Login           bool   `json:"login,omitempty" jsonschema:"run the shell as a login shell"`
	YieldTimeMS     int    `json:"yield_time_ms,omitempty" jsonschema:"time limit of this item; an item still running then is stopped and reported failed"`
	MaxOutputTokens int    `json:"max_output_tokens,omitempty" jsonschema:"output budget of this item in estimated tokens"`
	// TTY and AcceptsInput exist only to be refused with a clear hint.
	TTY          bool `json:"tty,omitempty" jsonschema:"not supported in a batch; use ExecCommand"`
	AcceptsInput bool `json:"accepts_input,omitempty" jsonschema:"not supported in a batch; use ExecCommand"`
}

// BatchArgs are the arguments of ExecCommandBatch.
type BatchArgs struct {
	Items []BatchItemArgs `json:"items" jsonschema:"commands to run one after another"`
}

// AdjustSchema bounds the item count.
func (BatchArgs) AdjustSchema(s *jsonschema.Schema) {
	s.Properties["items"].MinItems = new(1)
	s.Properties["items"].MaxItems = new(MaxBatchItems)
	s.Properties["items"].Types = nil
	s.Properties["items"].Type = "array"
	zero := 0.0
	item := s.Properties["items"].Items
	item.Properties["yield_time_ms"].Minimum = &zero
	item.Properties["max_output_tokens"].Minimum = &zero
	item.Properties["cmd"].MinLength = new(1)
}

// Validate refuses interactive items and blank commands.
func (a *BatchArgs) Validate() error {
	if len(a.Items) == 0 || len(a.Items) > MaxBatchItems {
		return &tools.FieldError{Field: "items", Problem: fmt.Sprintf("has %d items; give 1 to %d", len(a.Items), MaxBatchItems)}
	}
	for i, it := range a.Items {
		field := fmt.Sprintf("items[%d]", i)
		switch {
		case it.TTY:
			return &tools.FieldError{Field: field + ".tty", Problem: "tty is not supported in a batch", Hint: "run this command with ExecCommand and tty=true"}
		case it.AcceptsInput:
			return &tools.FieldError{Field: field + ".accepts_input", Problem: "input is not supported in a batch", Hint: "run this command with ExecCommand and accepts_input=true"}
		case shortCmd(it.Cmd, 1) == "":
			return &tools.FieldError{Field: field + ".cmd", Problem: "is blank"}
		}
	}
	return nil
}

// BatchItemResult is the canonical result of one item.
type BatchItemResult struct {
	Index           int                 `json:"index"`
	Cmd             string              `json:"cmd"`
	Status          string              `json:"status"` // completed or failed
	ExitStatus      *int                `json:"exit_status,omitempty"`
	Signal          string              `json:"signal,omitempty"`
	StdoutPreview   *string             `json:"stdout_preview,omitempty"`
	StderrPreview   *string             `json:"stderr_preview,omitempty"`
	Truncated       bool                `json:"truncated"`
	StdoutTruncated bool                `json:"stdout_truncated,omitempty"`
	StderrTruncated bool                `json:"stderr_truncated,omitempty"`
	Artifacts       []tools.ArtifactRef `json:"artifacts,omitempty"`
	StdoutArtifact  *int                `json:"stdout_artifact,omitempty"`
	StderrArtifact  *int                `json:"stderr_artifact,omitempty"`
	DurationMS      int64               `json:"duration_ms"`
	Error           *tools.ToolError    `json:"error,omitempty"`
}

// BatchMetrics separates the one model-visible tool call from the
// commands it ran.
type BatchMetrics struct {
	ToolCalls    int `json:"tool_calls"`
	CommandItems int `json:"command_items"`
}

// BatchResult is the canonical result of ExecCommandBatch.
type BatchResult struct {
	Items     []BatchItemResult `json:"items"`
	Completed int               `json:"completed"`
	Failed    int               `json:"failed"`
	Metrics   BatchMetrics      `json:"metrics"`
}

// ExecCommandBatch is the ExecCommandBatch tool: its items run one after
// another; an item's spawn failure, root violation or timeout fails that
// item only. cfg is used unless the call's context carries another.
func ExecCommandBatch(cfg Config) tools.Tool {
	return tools.Typed(ExecCommandBatchName,
		"Run several short shell commands one after another and get one grouped receipt. Items cannot use tty or "+
			"input and are never promoted to background tasks: an item still running at its yield_time_ms is stopped and "+
			"reported failed. Use ExecCommand for long or interactive commands.",
		func(ctx context.Context, a BatchArgs) tools.Result { return runBatch(ctx, cfg, a) })
}

func runBatch(ctx context.Context, base Config, a BatchArgs) tools.Result {
	cfg, err := resolve(ctx, base)
	if err != nil {
		return noConfig(ExecCommandBatchName, err)
	}
	total := cfg.Budget.Chars(0)
	res := BatchResult{Metrics: BatchMetrics{ToolCalls: 1, CommandItems: len(a.Items)}}
	for i, it := range a.Items {
		chars := min(cfg.Budget.Chars(it.MaxOutputTokens), total/len(a.Items))
		item := runItem(ctx, cfg, i, it, chars)
		if item.Status == ItemCompleted {
			res.Completed++
		} else {
			res.Failed++
		}
		res.Items = append(res.Items, item)
	}
	summary := fmt.Sprintf("batch of %d commands: %d completed, %d failed", len(a.Items), res.Completed, res.Failed)
	return tools.Build(tools.SuccessEnvelope(ExecCommandBatchName, summary, res), BatchReceipt)
}

func runItem(ctx context.Context, cfg Config, i int, it BatchItemArgs, chars int) BatchItemResult {
	item := BatchItemResult{Index: i, Cmd: it.Cmd, Status: ItemFailed}
	if ctx.Err() != nil {
		item.Error = &tools.ToolError{Kind: tools.KindInterrupted, Message: "not run: the call was cancelled"}
		return item
	}
	spec, fail := specFor(cfg, ExecCommandBatchName, it.Cmd, it.Workdir, it.Shell, it.Login)
	if fail != nil {
		item.Error = errorOf(fail.Envelope)
		return item
	}
	p, err := launch(ctx, cfg, spec)
	if err != nil {
		item.Error = errorOf(spawnFailure(ExecCommandBatchName, spec, err).Envelope)
		return item
	}
	defer p.Close()
	_, exited, werr := p.WaitFor(ctx, cfg.yield(it.YieldTimeMS))
	if !exited {
		stopAndClose(cfg, p)
		kind, msg := KindCommandTimeout, fmt.Sprintf("did not finish within %s and was stopped", cfg.yield(it.YieldTimeMS))
		if werr != nil {
			kind, msg = tools.KindInterrupted, "stopped: the call was cancelled"
		}
		item.Error = &tools.ToolError{Kind: kind, Message: msg, RecoveryHint: "run it with ExecCommand, which can continue it as a background task"}
	}
	exit, dur, _ := p.Exit()
	item.DurationMS = dur.Milliseconds()
	out, err := collectOutput(p, chars)
	if err != nil && item.Error == nil {
		item.Error = &tools.ToolError{Kind: "output_unreadable", Message: err.Error()}
	}
	var r ExecResult
	out.apply(&r)
	item.StdoutPreview, item.StderrPreview = r.StdoutPreview, r.StderrPreview
	item.Truncated, item.StdoutTruncated, item.StderrTruncated = *r.Truncated, r.StdoutTruncated, r.StderrTruncated
	item.Artifacts, item.StdoutArtifact, item.StderrArtifact = r.Artifacts, r.StdoutArtifact, r.StderrArtifact
	if item.Error == nil {
		item.Status = ItemCompleted
		item.ExitStatus, item.Signal = new(exit.Code), exit.Signal
	}
	return item
}

func errorOf(envelope []byte) *tools.ToolError {
	var env tools.Envelope
	if err := jsonUnmarshal(envelope, &env); err != nil || env.Error == nil {
		return &tools.ToolError{Kind: "unknown", Message: "the item failed"}
	}
	return env.Error
}

// BatchReceipt renders a batch as one text receipt that keeps item
// boundaries: a header line per item, then its outcome and output.
var BatchReceipt tools.Renderer = tools.RenderFunc(renderBatch)

func renderBatch(env tools.Envelope) string {
	var r BatchResult
	if err := jsonUnmarshal(env.Result, &r); err != nil {
		return env.SummaryText
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Batch of %d commands: %d completed, %d failed\n", len(r.Items), r.Completed, r.Failed)
	for _, it := range r.Items {
		fmt.Fprintf(&b, "\n[%d/%d] $ %s\n", it.Index+1, len(r.Items), shortCmd(it.Cmd, 200))
		if it.Error != nil {
			fmt.Fprintf(&b, "Failed (%s): %s\n", it.Error.Kind, it.Error.Message)
			if it.Error.RecoveryHint != "" {
				fmt.Fprintf(&b, "Hint: %s\n", it.Error.RecoveryHint)
			}
		}
		exec := ExecResult{Disposition: DispositionCompleted, ExitStatus: it.ExitStatus, Signal: it.Signal,
			StdoutPreview: it.StdoutPreview, StderrPreview: it.StderrPreview, Artifacts: it.Artifacts,
			StdoutArtifact: it.StdoutArtifact, StderrArtifact: it.StderrArtifact}
		if it.Error != nil && it.StdoutPreview == nil && it.StderrPreview == nil {
			continue
		}
		var ib strings.Builder
		writeCompleted(&ib, exec)
		b.WriteString(ib.String())
	}
	return strings.TrimRight(b.String(), "\n")
}

var errNoResult = errors.New("exec: no result")
