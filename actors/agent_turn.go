package actors

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/holon-actors/holon-actors/actors/agentstate"
	"github.com/holon-actors/holon-actors/actors/runtimetools"
	"github.com/holon-actors/holon-actors/actors/transport"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/providers"
	"github.com/holon-actors/holon-actors/tools"
)

// advance takes the agent's steps (agentstate.Next) until one runs in a
// goroutine or none is left. It is called after every change, and after
// recovery, so a turn cut by a crash resumes from its last durable step.
// Each Record is journaled, applied and its effects performed (commit)
// before Next decides again, so the order of side effects is the order of
// the decisions.
func (a *agent) advance(c actor.Context) {
	defer a.settleChild(c)
	a.beginStaging()
	defer a.endStaging() // before settleChild: what was staged is durable first
	for !a.stepping && !a.archiving && !a.plans.reading && !a.guide.reading {
		start := a.deps.Clock.Now()
		s := agentstate.Next(a.state, a.planEnv())
		if r, ok := s.(agentstate.Record); !ok || r.Report {
			a.flushStaged() // only must-commit records are staged together
		}
		switch s := s.(type) {
		case agentstate.Idle:
			a.publishHeader()
			return
		case agentstate.Record:
			if !s.Report {
				a.mustCommit(s.Batch)
			} else if err := a.commit(s.Batch); err != nil {
				a.deps.Log.Error().Err(err).Str("agent_id", a.id).Msg("report not recorded")
				return
			}
		case agentstate.CallModel:
			if a.refreshGuidance(c) {
				return // guidanceRead advances again
			}
			if a.refreshPlans(c) || a.refreshMCP(c) {
				return // plansRead or mcpToolsRead advances again
			}
			a.startModel(c, s, a.elapsedMS(start))
		case agentstate.RunTool:
			a.mustCommit(s.Started)
			a.flushStaged() // the call's start, alone, is durable before it runs
			a.startTool(c, s.Call)
		case agentstate.SettleLaunches:
			a.settleLaunches(c, s.Call, s.Launches)
		}
	}
}

// startModel runs one model round in a goroutine the agent owns; buildMS
// is the time its request took to build.
func (a *agent) startModel(c actor.Context, m agentstate.CallModel, buildMS int64) {
	if m.Answered > 0 {
		a.deps.Log.Error().Str("agent_id", a.id).Int("calls", m.Answered).Msg("request had unanswered tool calls; answered in the request only")
	}
	req := m.Request
	a.plans.fresh = nil // the next request reads its plans again
	a.gen++
	a.stepping, a.stepKind = true, stepModel
	gen, ctx, self, root, p, clock := a.gen, a.ctx, c.Self(), c.ActorSystem().Root, a.deps.Provider, a.deps.Clock
	go func() {
		t0 := clock.Now()
		resp, err := transport.CompleteSafely(ctx, p, req)
		root.Send(self, &stepDone{gen: gen, kind: stepModel, resp: resp, err: err,
			buildMS: buildMS, roundMS: clock.Since(t0).Milliseconds(), modelName: p.Name()})
	}()
}

// toolCatalog is the tools the model may call: the runtime's own first,
// then the registry's, whose namesakes of the runtime's tools are left out.
func (a *agent) toolCatalog() []providers.ToolSpec {
	reg, mcp := a.deps.Tools.Specs(), a.mcpSpecs()
	specs := make([]providers.ToolSpec, 0, len(a.wire.opTools)+len(reg)+len(mcp)) // built every model round: one slice, not one grown
	for _, t := range a.wire.opTools {
		s := t.Spec()
		if !a.offered(s.Name) {
			continue
		}
		specs = append(specs, providers.ToolSpec{Name: s.Name, Description: s.Description, Parameters: s.Parameters})
	}
	for _, s := range reg {
		if runtimetools.Is(s.Name) {
			continue // the runtime's own tools win
		}
		specs = append(specs, providers.ToolSpec{Name: s.Name, Description: s.Description, Parameters: s.Parameters})
	}
	return append(specs, mcp...)
}

// stepFinished applies the result of a step, unless it is stale.
func (a *agent) stepFinished(c actor.Context, m *stepDone) {
	if m.gen != a.gen || !a.stepping || a.state.Turn == nil {
		return // a stale result: the agent moved on
	}
	a.stepping = false
	switch m.kind {
	case stepModel:
		a.modelFinished(m)
	case stepTool:
		a.toolFinished(m)
	}
	a.advance(c)
}

func (a *agent) modelFinished(m *stepDone) {
	t := a.state.Turn
	if m.err != nil {
		a.modelFailedTelemetry(m)
		kind := providers.KindOf(m.err)
		text := fmt.Sprintf("The model call failed (%s): %v", kind, m.err)
		var pe *providers.Error
		if errors.As(m.err, &pe) {
			text = fmt.Sprintf("The model call to %s failed (%s): %s", pe.Provider, kind, pe.Message)
		}
		// The failure artifact and the whole attempt timeline go with the
		// runtime_error, for operators and `once --json`.
		f := providers.FailureOf(m.err)
		f.Message, f.Summary = text, text
		if a.retryModelRound(m.err, &f) {
			return
		}
		a.failTurnWith(messages.TerminalAborted, f)
		return
	}
	round := t.Round + 1
	var fallback []messages.Payload
	if tl := m.resp.Timeline; tl != nil && tl.WinningModelRef != "" && tl.RequestedModelRef != "" && tl.WinningModelRef != tl.RequestedModelRef {
		fallback = append(fallback, messages.SystemNotificationQueued{Notification: messages.SystemNotification{
			Kind: "provider.fallback", Level: messages.LevelWarning,
			Message: fmt.Sprintf("The model %s failed this round; the fallback %s answered instead.", tl.RequestedModelRef, tl.WinningModelRef),
		}})
	}
	a.mustPersist(append(fallback,
		messages.ProviderRoundCompleted{
			TurnID: t.ID, Round: round, Provider: m.modelName, Model: m.resp.Model,
			TokenUsage: m.resp.Usage, ContextBuildMS: m.buildMS, ProviderRoundMS: m.roundMS,
			StopReason: m.resp.StopReason, ResponseID: m.resp.ResponseID,
			AttemptTimeline: timelineJSON(m.resp.Timeline),
		},
		messages.AssistantRoundRecorded{TurnID: t.ID, Round: round, Text: m.resp.Text, ToolCalls: journalCalls(m.resp.ToolCalls)},
	)...)
}

// startTool runs the tool in a goroutine (its tool_call_started is durable:
// agentstate.RunTool),
// bound to the agent's execution root, artifacts, tasks and inspector
// (ToolEnv). Unknown tools and arguments that are not a JSON object
// become error results the model can correct; nothing runs for them. A
// freeform tool (ApplyPatch) also takes its raw text.
func (a *agent) startTool(c actor.Context, call messages.ToolCall) {
	a.gen++
	a.stepping, a.stepKind = true, stepTool
	gen, self, root := a.gen, c.Self(), c.ActorSystem().Root
	if res, extra, later, ok := a.runRuntimeTool(call); ok {
		if later == nil {
			root.Send(self, &stepDone{gen: gen, kind: stepTool, call: call, result: res, extra: extra})
			return
		}
		ctx, clock := a.ctx, a.deps.Clock
		go func() {
			t0 := clock.Now()
			res, extra := finishSafely(ctx, call, later)
			root.Send(self, &stepDone{gen: gen, kind: stepTool, call: call, result: res, extra: extra, duration: clock.Since(t0).Milliseconds()})
		}()
		return
	}
	tool, ok := a.deps.Tools.Lookup(call.Name)
	if !ok {
		tool, ok = a.mcpTool(call.Name)
	}
	if !ok {
		root.Send(self, &stepDone{gen: gen, kind: stepTool, call: call, result: tools.Failure(call.Name, messages.ToolError, tools.ToolError{
			Kind: tools.KindUnknownTool, Message: fmt.Sprintf("there is no tool named %q", call.Name),
			RecoveryHint: "call one of: " + strings.Join(a.deps.Tools.Names(), ", "),
		})})
		return
	}
	if _, freeform := tool.(tools.Freeform); !freeform && !isJSONObject(call.Arguments) {
		root.Send(self, &stepDone{gen: gen, kind: stepTool, call: call, result: tools.Failure(call.Name, messages.ToolError, tools.ToolError{
			Kind: tools.KindInvalidToolInput, Message: "the arguments are not a JSON object: " + truncate(string(call.Arguments), 200),
			RecoveryHint: "send the arguments as one JSON object matching the tool's schema",
		})})
		return
	}
	ctx, clock := a.toolContext(a.ctx), a.deps.Clock
	go func() {
		t0 := clock.Now()
		res := callSafely(ctx, tool, call)
		root.Send(self, &stepDone{gen: gen, kind: stepTool, call: call, result: res, duration: clock.Since(t0).Milliseconds()})
	}()
}

// journalCalls keeps the model's calls journalable: arguments that are
// not valid JSON are kept verbatim as a JSON string (and later refused as
// invalid_tool_input) instead of breaking the event.
func journalCalls(calls []messages.ToolCall) []messages.ToolCall {
	out := make([]messages.ToolCall, len(calls))
	for i, c := range calls {
		c.Arguments = rawOrNull(c.Arguments)
		out[i] = c
	}
	return out
}

// isJSONObject reports whether b is one JSON object: valid JSON whose
// value opens with a brace. It checks without decoding, so a tool call's
// arguments are not built into a map only to be dropped.
func isJSONObject(b json.RawMessage) bool {
	v := bytes.TrimLeft(b, " \t\r\n")
	return len(v) > 0 && v[0] == '{' && json.Valid(b)
}

func rawOrNull(b json.RawMessage) json.RawMessage { return agentstate.RawOrNull(b) }

// failTurn settles the turn in flight as failed by the runtime with code
// and summary (agentstate.FailedTurn).
func (a *agent) failTurn(kind messages.TurnTerminalKind, code, summary string) {
	a.failTurnWith(kind, agentstate.RuntimeFailure(code, summary))
}

// failTurnWith ends the turn with failure f (agentstate.FailedTurn).
func (a *agent) failTurnWith(kind messages.TurnTerminalKind, f messages.Failure) {
	a.mustCommit(agentstate.FailedTurn(a.state, a.env(), kind, f))
}

// callSafely runs a tool; a panic in it becomes an error result the model
// sees instead of a crash of the daemon.
func callSafely(ctx context.Context, t tools.Tool, call messages.ToolCall) (res tools.Result) {
	defer func() {
		if r := recover(); r != nil {
			res = tools.Failure(call.Name, messages.ToolError, tools.ToolError{
				Kind: "tool_panicked", Message: fmt.Sprintf("the tool crashed: %v", r),
				RecoveryHint: "the call may have had partial effects; check before retrying",
			})
		}
	}()
	return t.Call(ctx, call.Arguments)
}

// timelineJSON encodes a provider attempt timeline for the journal; nil
// when the provider gave none (a single transport, the scripted player).
func timelineJSON(tl *providers.ProviderAttemptTimeline) json.RawMessage {
	if tl == nil {
		return nil
	}
	b, err := json.Marshal(tl)
	if err != nil {
		return nil
	}
	return b
}

// toolFinished journals a tool's result, with the pending notifications
// when it ends its batch, and what a runtime-owned tool's success records
// besides (m.extra: an engagement decision, an operator notification, a
// child's task, a work item's events).
func (a *agent) toolFinished(m *stepDone) {
	t := a.state.Turn
	payloads := []messages.Payload{messages.ToolExecuted{
		TurnID: t.ID, CallID: m.call.ID, ToolName: m.call.Name,
		Status: m.result.Status, Envelope: m.result.Envelope, Receipt: m.result.Receipt,
		DurationMS: m.duration, Notifications: a.batchCarrier(m.call),
	}}
	if m.result.Status == messages.ToolOK {
		payloads = append(payloads, m.extra...)
		payloads = append(payloads, agentstate.SkillActivations(a.state, a.guide.g.Skills, m.call, a.commandCwd())...)
	}
	a.mustPersist(payloads...)
}

// runnable reports whether the agent may take steps: not archiving, and
// agentstate.Runnable.
func (a *agent) runnable() bool { return !a.archiving && agentstate.Runnable(a.state) }
