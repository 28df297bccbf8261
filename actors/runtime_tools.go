package actors

import (
	"context"
	"fmt"
	"slices"

	"github.com/holon-actors/holon-actors/actors/runtimetools"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/tools"
)

// slowDecision finishes a runtime tool's decision off the actor: it may
// block, and must touch nothing of the agent.
type slowDecision func(ctx context.Context) (tools.Result, []messages.Payload)

// runRuntimeTool runs a tool the agent owns inside Receive: the result and
// the payloads toolFinished journals with it on success, or the slow rest
// of the decision for a step goroutine (later); false for any other tool.
func (a *agent) runRuntimeTool(call messages.ToolCall) (res tools.Result, payloads []messages.Payload, later slowDecision, ok bool) {
	i := slices.IndexFunc(a.wire.opTools, func(t tools.Tool) bool { return t.Spec().Name == call.Name })
	if i < 0 {
		return tools.Result{}, nil, nil, false
	}
	if refuse, ok := runtimetools.Refusals[call.Name]; ok {
		if res, refused := refuse(a.state); refused {
			return res, nil, nil, true
		}
	}
	res = callSafely(a.ctx, a.wire.opTools[i], call)
	if res.Status != messages.ToolOK {
		return res, nil, nil, true
	}
	if decide, ok := runtimetools.Decisions[call.Name]; ok {
		d := decide(a.state, a.env(), call)
		if d.Worktree != nil || d.Create != nil {
			return tools.Result{}, nil, a.spawnIO(d), true
		}
		if d.Workspace != nil {
			return tools.Result{}, nil, a.workspaceIO(d.Workspace), true
		}
		if d.Memory != nil {
			return tools.Result{}, nil, a.memoryIO(d.Memory), true
		}
		if d.Plan == nil && d.Result.Status == "" {
			d.Result = res // the validated result stands
		}
		res, payloads, later = a.deps.ToolEnv.decided(a.id, d)
		return res, payloads, later, true
	}
	return res, nil, nil, true
}

// finishSafely runs the slow rest of a decision; a panic in it becomes an
// error result, as in a tool (callSafely).
func finishSafely(ctx context.Context, call messages.ToolCall, later slowDecision) (res tools.Result, extra []messages.Payload) {
	defer func() {
		if r := recover(); r != nil {
			res, extra = tools.Failure(call.Name, messages.ToolError, tools.ToolError{
				Kind: "tool_panicked", Message: fmt.Sprintf("the tool crashed: %v", r),
				RecoveryHint: "the call may have had partial effects; check before retrying",
			}), nil
		}
	}()
	return later(ctx)
}
