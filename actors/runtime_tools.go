package actors

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/holon-actors/holon-actors/actors/runtimetools"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/tools"
)

// runtimeTool is what the agent does with one of its own tools
// (runtimetools.Tools) around the tool's Call, which validates the
// arguments, when the decision needs the agent itself. decide turns a
// validated call into the result the model sees and the payloads
// journaled with it (toolFinished).
type runtimeTool struct {
	decide func(a *agent, call messages.ToolCall, valid tools.Result) (tools.Result, []messages.Payload)
	// slow, when set and ok, is tried before decide: the part of the
	// decision that blocks (git) is finished by later in a step goroutine,
	// from values captured in Receive.
	slow func(a *agent, call messages.ToolCall, valid tools.Result) (later slowDecision, ok bool)
}

// slowDecision finishes a runtime tool's decision off the actor: it may
// block, and must touch nothing of the agent.
type slowDecision func(ctx context.Context) (tools.Result, []messages.Payload)

// runtimeTools are the agent's decisions for its own tools, by name, that
// still need the agent: SpawnAgent starts a child actor and plans its git
// worktree. Every other runtime-owned tool is refused and decided purely
// (runtimetools.Refusals, runtimetools.Decisions). These maps are the one
// place a runtime-owned tool's name selects what the agent does.
var runtimeTools = map[string]runtimeTool{
	runtimetools.SpawnAgentToolName:   {decide: (*agent).spawnFromTool, slow: (*agent).spawnWorktreeChild},
	runtimetools.UseWorkspaceToolName: {slow: (*agent).useWorkspaceFromTool},
}

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
		if d.Plan == nil && d.Result.Status == "" {
			d.Result = res // the validated result stands
		}
		res, payloads, later = a.deps.ToolEnv.decided(a.id, d)
		return res, payloads, later, true
	}
	rt := runtimeTools[call.Name]
	if rt.slow != nil {
		if later, ok := rt.slow(a, call, res); ok {
			return tools.Result{}, nil, later, true
		}
	}
	if rt.decide == nil {
		return res, nil, nil, true
	}
	res, payloads = rt.decide(a, call, res)
	return res, payloads, nil, true
}

// spawnFromTool spawns what a validated SpawnAgent call asks for; a
// private child's supervision task is journaled with the result.
func (a *agent) spawnFromTool(call messages.ToolCall, valid tools.Result) (tools.Result, []messages.Payload) {
	args, ok := resultOf[runtimetools.SpawnAgentArgs](valid) // with the defaults Validate filled in
	if !ok {
		return valid, nil
	}
	res := a.spawn(a.ctx, args)
	if started := a.spawnStarted(call, res); started != nil {
		return res, []messages.Payload{*started}
	}
	return res, nil
}

// resultOf decodes the result of a tool's success envelope.
func resultOf[T any](res tools.Result) (T, bool) {
	var env struct {
		Result T `json:"result"`
	}
	err := json.Unmarshal(res.Envelope, &env)
	return env.Result, err == nil
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
