package actors

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/holon-actors/holon-actors/actors/timers"
	"github.com/holon-actors/holon-actors/messages"
)

// finishSuspend settles a turn whose model asked its operator a question
// (RequestOperatorInput): the engagement decision when the model gave
// signals, the terminal record with a waiting closure, the action_required
// brief, the suspension record, the operator notification, the deadline
// timer of the first attempt and the suspended status, in one batch. Then
// it arms the timer and sends the notification on its way.
func (a *agent) finishSuspend() {
	t, args, now := a.state.Turn, a.state.Turn.Ask, a.deps.Clock.Now()
	rec, err := args.record()
	if err != nil { // validated when the tool ran; a journal from a build with other rules
		a.failTurn(messages.TerminalAborted, "invalid_suspension", "The question to the operator could not be recorded: "+err.Error())
		return
	}
	rec.ID, rec.AgentID, rec.TurnID, rec.MessageID, rec.CallID = messages.NewID("susp"), a.id, t.ID, t.MessageID, t.AskCallID
	rec.SuspendedAt = now
	var payloads []messages.Payload
	if sig, ok := args.signals(); ok {
		d := sig.Decide()
		rec.DecisionRecord = &d
		payloads = append(payloads, messages.EngagementDecisionRecorded{Decision: d, TurnID: t.ID, CallID: rec.CallID, SuspensionID: rec.ID})
	}
	var timer *messages.TimerScheduled
	if window := rec.AttemptWindow(); window > 0 {
		expires := now.Add(window * time.Duration(rec.MaxAttempts()))
		rec.ExpiresAt = &expires
		timer = &messages.TimerScheduled{TimerID: messages.NewID("tmr"), DueAt: now.Add(window),
			Reason: "suspension " + rec.ID + " attempt 1", SuspensionID: rec.ID}
	}
	ask := questionText(a.id, &rec)
	n := a.operatorNotification(messages.NotifySuspensionRequested, ask, rec.ID)
	payloads = append(payloads,
		messages.TurnTerminal{
			TurnID: t.ID, MessageID: t.MessageID, TurnIndex: t.Index, Kind: messages.TerminalCompleted,
			DurationMS: a.elapsedMS(t.StartedAt), LastAssistantMessage: t.LastText,
			Closure: messages.Closure{Outcome: messages.OutcomeWaiting, WaitingReason: messages.AwaitingOperatorInput},
		},
		messages.BriefRecorded{Brief: messages.Brief{
			ID: messages.NewID("brief"), AgentID: a.id, Kind: messages.BriefActionRequired,
			Text: strings.TrimSpace(t.LastText + "\n\n" + ask), RelatedMessageID: t.MessageID, CreatedAt: now,
		}},
		messages.SuspensionRequested{Suspension: rec},
		messages.OperatorNotificationRequested{Notification: n},
	)
	if timer != nil {
		payloads = append(payloads, *timer)
	}
	payloads = append(payloads, a.statusChange(messages.StatusSuspended, "awaiting operator input: "+rec.ID))
	a.mustPersist(payloads...)
	if timer != nil {
		a.armTimer(timer.TimerID, timer.DueAt)
	}
	a.dispatchNotification(n)
}

// questionText is the question as an operator reads it, with its choices,
// deadline and how to answer.
func questionText(agentID string, r *messages.SuspensionRecord) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n", r.Question)
	for _, c := range r.EffectiveChoices() {
		fmt.Fprintf(&b, "  - %s: %s", c.Value, c.Label)
		if c.Description != "" {
			fmt.Fprintf(&b, " (%s)", c.Description)
		}
		b.WriteString("\n")
	}
	if r.ExpiresAt != nil {
		fmt.Fprintf(&b, "Answer by %s (then: %s).\n", r.ExpiresAt.UTC().Format(time.RFC3339), r.FinalPolicy())
	}
	fmt.Fprintf(&b, "Answer with: holon-actors respond %s %s <value>", agentID, r.ID)
	return b.String()
}

// respond answers or cancels a suspension. Answers are checked in order:
// unknown id, a settled suspension (the same answer again gets the same
// response), an agent not suspended, a value invalid for the question.
// The accepted answer, the resumed status and the operator's input message
// are one batch.
func (a *agent) respond(m *respondSuspension) *suspensionResult {
	rec, ok := a.state.Suspensions[m.answer.SuspensionID]
	if !ok {
		return &suspensionResult{err: fmt.Errorf("%w: agent %s has no suspension %q", ErrSuspensionNotFound, a.id, m.answer.SuspensionID)}
	}
	if !rec.Open() {
		if !m.cancel && rec.Resolution == messages.ResolutionResponded && sameJSON(rec.Response, m.answer.Value) {
			return &suspensionResult{response: a.replayResponse(rec)}
		}
		return &suspensionResult{err: fmt.Errorf("%w: %s was %s at %s", ErrSuspensionClosed, rec.ID, rec.Resolution,
			rec.RespondedAt.UTC().Format(time.RFC3339))}
	}
	if a.state.Status != messages.StatusSuspended {
		return &suspensionResult{err: fmt.Errorf("%w: agent %s is %s", ErrNotSuspended, a.id, a.state.Status)}
	}
	resp := messages.InputResponse{SuspensionID: rec.ID, Resolution: messages.ResolutionResponded, Value: compactJSON(m.answer.Value),
		RespondedBy: m.answer.RespondedBy, RespondedAt: a.deps.Clock.Now(), Metadata: m.answer.Metadata, Question: rec.Question}
	if m.cancel {
		resp.Resolution, resp.Value, resp.Metadata = messages.ResolutionCancelled, nil, nil
		if m.reason != "" {
			resp.Metadata, _ = json.Marshal(map[string]string{"reason": m.reason})
		}
	} else {
		choice, err := rec.CheckAnswer(m.answer.Value)
		if err != nil {
			return &suspensionResult{err: err}
		}
		labelled(&resp, choice)
	}
	env, err := a.inputEnvelope(resp, messages.OperatorOrigin(nonEmpty(m.answer.RespondedBy, "operator")),
		messages.SurfaceHTTPControlPrompt, messages.AdmissionControlAuthenticated)
	if err != nil {
		return &suspensionResult{err: err}
	}
	err = a.persist(
		messages.SuspensionResumed{SuspensionID: rec.ID, Response: resp},
		messages.MessageAdmitted{Envelope: env},
		a.statusChange(messages.StatusAwakeIdle, fmt.Sprintf("suspension %s %s", rec.ID, resp.Resolution)),
	)
	if err != nil {
		return &suspensionResult{err: fmt.Errorf("answer %s: %w", rec.ID, err)}
	}
	return &suspensionResult{response: resp}
}

// replayResponse rebuilds the response of an answered suspension.
func (a *agent) replayResponse(rec *messages.SuspensionRecord) messages.InputResponse {
	resp := messages.InputResponse{SuspensionID: rec.ID, Resolution: rec.Resolution, Value: rec.Response,
		RespondedBy: rec.RespondedBy, Question: rec.Question}
	if rec.RespondedAt != nil {
		resp.RespondedAt = *rec.RespondedAt
	}
	choice, _ := rec.CheckAnswer(rec.Response) // an accepted answer
	labelled(&resp, choice)
	return resp
}

// labelled adds the chosen choice's label and description to resp.
func labelled(resp *messages.InputResponse, choice *messages.SuspensionChoice) {
	if choice != nil {
		resp.ChoiceLabel, resp.ChoiceDescription = choice.Label, choice.Description
	}
}

// inputEnvelope is the message that resumes the agent: the InputResponse
// as a JSON body, bound to the suspension by its source refs. An operator
// answer is an operator prompt; a fallback is a runtime follow-up.
func (a *agent) inputEnvelope(resp messages.InputResponse, origin messages.Origin, surface messages.MessageDeliverySurface,
	admission messages.AdmissionContext) (messages.MessageEnvelope, error) {
	body, err := json.Marshal(map[string]messages.InputResponse{"input_response": resp})
	if err != nil {
		return messages.MessageEnvelope{}, err
	}
	kind := messages.KindOperatorPrompt
	if origin.Kind != messages.OriginOperator {
		kind = messages.KindInternalFollowup
	}
	env := messages.MessageEnvelope{
		ID: messages.NewID("msg"), AgentID: a.id, CreatedAt: a.deps.Clock.Now(), Kind: kind, Origin: origin,
		Priority: messages.PriorityNext, Body: messages.JSONBody(body), DeliverySurface: surface, AdmissionContext: admission,
		SourceRefs: map[string]string{"suspension_id": resp.SuspensionID, "resolution": string(resp.Resolution)},
	}
	env.Normalize()
	env.AuthorityClass = messages.DeriveAuthority(origin.Kind, surface, admission)
	return env, env.Validate()
}

// suspensionDeadline handles the fire of a suspension's attempt timer:
// another reminder while attempts remain, otherwise the final policy. A
// fire for a settled suspension only retires its timer.
func (a *agent) suspensionDeadline(f timers.Fire, ts TimerState) {
	fired := messages.TimerFired{TimerID: f.TimerID, FireID: f.FireID}
	rec, ok := a.state.Suspensions[ts.SuspensionID]
	if !ok || !rec.Open() {
		a.mustPersist(fired)
		return
	}
	now := a.deps.Clock.Now()
	if rec.Attempts < rec.MaxAttempts() {
		msg := fmt.Sprintf("Reminder %d of %d: %s", rec.Attempts+1, rec.MaxAttempts(), questionText(a.id, rec))
		n := a.operatorNotification(messages.NotifySuspensionReminder, msg, rec.ID)
		next := messages.TimerScheduled{TimerID: messages.NewID("tmr"), DueAt: now.Add(rec.AttemptWindow()),
			Reason: fmt.Sprintf("suspension %s attempt %d", rec.ID, rec.Attempts+1), SuspensionID: rec.ID}
		a.mustPersist(fired, messages.OperatorNotificationRequested{Notification: n}, next)
		a.armTimer(next.TimerID, next.DueAt)
		a.dispatchNotification(n)
		return
	}
	a.expireSuspension(fired, rec, now)
}

// expireSuspension applies the final fallback policy of a suspension
// nobody answered: resume with the fallback value (marked as a fallback),
// or end the wait as a failure with a failure brief. Either way the
// operator is told.
func (a *agent) expireSuspension(fired messages.TimerFired, rec *messages.SuspensionRecord, now time.Time) {
	policy := rec.FinalPolicy()
	expired := messages.SuspensionExpired{SuspensionID: rec.ID, Policy: policy, Attempts: rec.Attempts}
	payloads := []messages.Payload{fired}
	var msg string
	if policy.Resumes() {
		resp := messages.InputResponse{SuspensionID: rec.ID, Resolution: messages.ResolutionExpired, Value: rec.FallbackValue,
			RespondedAt: now, Fallback: true, Question: rec.Question}
		choice, _ := rec.CheckAnswer(rec.FallbackValue) // validated when asked
		labelled(&resp, choice)
		expired.Response = &resp
		env, err := a.inputEnvelope(resp, messages.SystemOrigin("suspension_timeout"), messages.SurfaceRuntimeSystem, messages.AdmissionRuntimeOwned)
		if err != nil {
			panic(fmt.Errorf("agent %s: fallback input for %s: %w", a.id, rec.ID, err)) // built from a validated record
		}
		msg = fmt.Sprintf("No answer to %q in time; the agent continued with the fallback answer %s.", rec.Question, rec.FallbackValue)
		payloads = append(payloads, expired, messages.MessageAdmitted{Envelope: env})
	} else {
		msg = fmt.Sprintf("No answer to %q in time; the wait ended as failed (fallback policy fail).", rec.Question)
		payloads = append(payloads, expired, messages.BriefRecorded{Brief: messages.Brief{
			ID: messages.NewID("brief"), AgentID: a.id, Kind: messages.BriefFailure, Text: msg,
			RelatedMessageID: rec.MessageID, CreatedAt: now,
		}})
	}
	n := a.operatorNotification(messages.NotifySuspensionExpired, msg, rec.ID)
	payloads = append(payloads, messages.OperatorNotificationRequested{Notification: n})
	if a.state.Status == messages.StatusSuspended {
		payloads = append(payloads, a.statusChange(messages.StatusAwakeIdle, "suspension "+rec.ID+" expired"))
	}
	a.mustPersist(payloads...)
	a.dispatchNotification(n)
}

// afterResume is the status a resumed agent returns to: suspended while a
// question is open, running while its turn is in flight (paused mid-turn),
// idle otherwise.
func (a *agent) afterResume() messages.AgentStatus {
	if a.state.openSuspension() != nil {
		return messages.StatusSuspended
	}
	if a.state.Turn != nil { // paused mid-turn: the turn goes on
		return messages.StatusAwakeRunning
	}
	return messages.StatusAwakeIdle
}

func sameJSON(a, b json.RawMessage) bool {
	return bytes.Equal(compactJSON(a), compactJSON(b))
}

func compactJSON(v json.RawMessage) json.RawMessage {
	var buf bytes.Buffer
	if err := json.Compact(&buf, v); err != nil {
		return v
	}
	return buf.Bytes()
}
