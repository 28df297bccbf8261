package agentstate

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/holon-actors/holon-actors/messages"
)

// The decisions of an agent's questions to its operator (suspensions):
// asking, answering, reminding and expiring.

// Answer is an operator's answer to a suspension. Only operator-
// authenticated surfaces (the control socket, the authenticated control
// listener, the CLI) build one: no message, webhook or tool output can.
type Answer struct {
	SuspensionID string
	Value        json.RawMessage
	RespondedBy  string
	Metadata     json.RawMessage
}

// The suspension errors; each says what to do. An invalid value is a
// *messages.InvalidAnswerError.
var (
	// ErrSuspensionNotFound: the agent has no suspension with that id.
	ErrSuspensionNotFound = errors.New("no such suspension: list the open ones with holon-actors suspensions list")
	// ErrNotSuspended: the agent is not suspended awaiting input.
	ErrNotSuspended = errors.New("the agent is not suspended awaiting input")
	// ErrSuspensionClosed: the suspension was already answered (with
	// another value), expired or cancelled.
	ErrSuspensionClosed = errors.New("the suspension is no longer active")
)

// suspendedTurn settles a turn whose model asked its operator a question
// (RequestOperatorInput): the engagement decision when the model gave
// signals, the terminal record with a waiting closure, the
// action_required brief, the suspension record, the operator
// notification, the deadline timer of the first attempt and the suspended
// status, in one Batch. A question that cannot be recorded (validated
// when the tool ran; a journal from a build with other rules) fails the
// turn instead.
func SuspendedTurn(st *State, env Env) Batch {
	t, args, now := st.Turn, st.Turn.Ask, env.Now
	rec, err := args.Record()
	if err != nil {
		return FailedTurn(st, env, messages.TerminalAborted,
			RuntimeFailure("invalid_suspension", "The question to the operator could not be recorded: "+err.Error()))
	}
	rec.ID, rec.AgentID, rec.TurnID, rec.MessageID, rec.CallID = env.NewID("susp"), env.AgentID, t.ID, t.MessageID, t.AskCallID
	rec.SuspendedAt = now
	var b Batch
	if sig, ok := args.Signals(); ok {
		d := sig.Decide()
		rec.DecisionRecord = &d
		b = append(b, messages.EngagementDecisionRecorded{Decision: d, TurnID: t.ID, CallID: rec.CallID, SuspensionID: rec.ID})
	}
	var timer Batch
	if window := rec.AttemptWindow(); window > 0 {
		expires := now.Add(window * time.Duration(rec.MaxAttempts()))
		rec.ExpiresAt = &expires
		timer = Batch{messages.TimerScheduled{TimerID: env.NewID("tmr"), DueAt: now.Add(window),
			Reason: "suspension " + rec.ID + " attempt 1", SuspensionID: rec.ID}}
	}
	ask := questionText(env.AgentID, &rec)
	waiting := messages.Closure{Outcome: messages.OutcomeWaiting, WaitingReason: messages.AwaitingOperatorInput}
	b = append(b, SettleTurn(st, env, messages.TerminalCompleted, waiting, messages.BriefActionRequired,
		strings.TrimSpace(t.LastText+"\n\n"+ask))...)
	b = append(b, messages.SuspensionRequested{Suspension: rec},
		messages.OperatorNotificationRequested{Notification: NotificationOf(st, env, messages.NotifySuspensionRequested, ask, rec.ID)})
	b = append(b, timer...)
	return append(b, StatusChange(st, messages.StatusSuspended, "awaiting operator input: "+rec.ID))
}

// answerSuspension answers or cancels a suspension. Answers are checked in
// order: unknown id, a settled suspension (the same answer again gets the
// same response and no Batch), an agent not suspended, a value invalid for
// the question. The accepted answer, the resumed status and the operator's
// input message are one Batch.
func AnswerSuspension(st *State, env Env, a Answer, cancel bool, reason string) (Batch, messages.InputResponse, error) {
	rec, ok := st.Suspensions[a.SuspensionID]
	if !ok {
		return nil, messages.InputResponse{}, fmt.Errorf("%w: agent %s has no suspension %q", ErrSuspensionNotFound, env.AgentID, a.SuspensionID)
	}
	if !rec.Open() {
		if !cancel && rec.Resolution == messages.ResolutionResponded && sameJSON(rec.Response, a.Value) {
			return nil, replayResponse(rec), nil
		}
		return nil, messages.InputResponse{}, fmt.Errorf("%w: %s was %s at %s", ErrSuspensionClosed, rec.ID, rec.Resolution,
			rec.RespondedAt.UTC().Format(time.RFC3339))
	}
	if st.Status != messages.StatusSuspended {
		return nil, messages.InputResponse{}, fmt.Errorf("%w: agent %s is %s", ErrNotSuspended, env.AgentID, st.Status)
	}
	resp := messages.InputResponse{SuspensionID: rec.ID, Resolution: messages.ResolutionResponded, Value: compactJSON(a.Value),
		RespondedBy: a.RespondedBy, RespondedAt: env.Now, Metadata: a.Metadata, Question: rec.Question}
	if cancel {
		resp.Resolution, resp.Value, resp.Metadata = messages.ResolutionCancelled, nil, nil
		if reason != "" {
			resp.Metadata, _ = json.Marshal(map[string]string{"reason": reason})
		}
	} else {
		choice, err := rec.CheckAnswer(a.Value)
		if err != nil {
			return nil, messages.InputResponse{}, err
		}
		withChoice(&resp, choice)
	}
	if rec.ToolApproval() != nil {
		return answerApproval(st, resp), resp, nil
	}
	in, err := inputEnvelope(env, resp, messages.OperatorOrigin(cmp.Or(a.RespondedBy, "operator")),
		messages.SurfaceHTTPControlPrompt, messages.AdmissionControlAuthenticated)
	if err != nil {
		return nil, messages.InputResponse{}, err
	}
	return Batch{
		messages.SuspensionResumed{SuspensionID: rec.ID, Response: resp},
		messages.MessageAdmitted{Envelope: in},
		StatusChange(st, messages.StatusAwakeIdle, fmt.Sprintf("suspension %s %s", rec.ID, resp.Resolution)),
	}, resp, nil
}

// replayResponse rebuilds the response of an answered suspension.
func replayResponse(rec *messages.SuspensionRecord) messages.InputResponse {
	resp := messages.InputResponse{SuspensionID: rec.ID, Resolution: rec.Resolution, Value: rec.Response,
		RespondedBy: rec.RespondedBy, Question: rec.Question}
	if rec.RespondedAt != nil {
		resp.RespondedAt = *rec.RespondedAt
	}
	choice, _ := rec.CheckAnswer(rec.Response) // an accepted answer
	withChoice(&resp, choice)
	return resp
}

// labelled adds the chosen choice's label and description to resp.
func withChoice(resp *messages.InputResponse, choice *messages.SuspensionChoice) {
	if choice != nil {
		resp.ChoiceLabel, resp.ChoiceDescription = choice.Label, choice.Description
	}
}

// inputEnvelope is the message that resumes the agent: the InputResponse
// as a JSON body, bound to the suspension by its source refs. An operator
// answer is an operator prompt; a fallback is a runtime follow-up.
func inputEnvelope(env Env, resp messages.InputResponse, origin messages.Origin, surface messages.MessageDeliverySurface,
	admission messages.AdmissionContext) (messages.MessageEnvelope, error) {
	body, err := json.Marshal(map[string]messages.InputResponse{"input_response": resp})
	if err != nil {
		return messages.MessageEnvelope{}, err
	}
	kind := messages.KindOperatorPrompt
	if origin.Kind != messages.OriginOperator {
		kind = messages.KindInternalFollowup
	}
	m := messages.MessageEnvelope{
		ID: env.NewID("msg"), AgentID: env.AgentID, CreatedAt: env.Now, Kind: kind, Origin: origin,
		Priority: messages.PriorityNext, Body: messages.JSONBody(body), DeliverySurface: surface, AdmissionContext: admission,
		SourceRefs: map[string]string{"suspension_id": resp.SuspensionID, "resolution": string(resp.Resolution)},
	}
	m.Normalize()
	m.AuthorityClass = messages.DeriveAuthority(origin.Kind, surface, admission)
	return m, m.Validate()
}

// suspensionFire handles the fire f of a suspension's attempt timer ts:
// another reminder and attempt timer while attempts remain, otherwise the
// final policy (suspensionExpiry). A fire for a settled suspension only
// retires its timer.
func SuspensionFire(st *State, env Env, fired messages.TimerFired, ts TimerState) Batch {
	rec, ok := st.Suspensions[ts.SuspensionID]
	if !ok || !rec.Open() {
		return Batch{fired}
	}
	if rec.Attempts >= rec.MaxAttempts() {
		return append(Batch{fired}, SuspensionExpiry(st, env, rec)...)
	}
	msg := fmt.Sprintf("Reminder %d of %d: %s", rec.Attempts+1, rec.MaxAttempts(), questionText(env.AgentID, rec))
	return Batch{fired,
		messages.OperatorNotificationRequested{Notification: NotificationOf(st, env, messages.NotifySuspensionReminder, msg, rec.ID)},
		messages.TimerScheduled{TimerID: env.NewID("tmr"), DueAt: env.Now.Add(rec.AttemptWindow()),
			Reason: fmt.Sprintf("suspension %s attempt %d", rec.ID, rec.Attempts+1), SuspensionID: rec.ID},
	}
}

// suspensionExpiry applies the final fallback policy of a suspension
// nobody answered: resume with the fallback value (marked as a fallback),
// or end the wait as a failure with a failure brief. Either way the
// operator is told, and a suspended agent wakes.
func SuspensionExpiry(st *State, env Env, rec *messages.SuspensionRecord) Batch {
	policy := rec.FinalPolicy()
	expired := messages.SuspensionExpired{SuspensionID: rec.ID, Policy: policy, Attempts: rec.Attempts}
	var b Batch
	var msg string
	if policy.Resumes() {
		resp := messages.InputResponse{SuspensionID: rec.ID, Resolution: messages.ResolutionExpired, Value: rec.FallbackValue,
			RespondedAt: env.Now, Fallback: true, Question: rec.Question}
		choice, _ := rec.CheckAnswer(rec.FallbackValue) // validated when asked
		withChoice(&resp, choice)
		expired.Response = &resp
		in, err := inputEnvelope(env, resp, messages.SystemOrigin("suspension_timeout"), messages.SurfaceRuntimeSystem, messages.AdmissionRuntimeOwned)
		if err != nil {
			panic(fmt.Errorf("agent %s: fallback input for %s: %w", env.AgentID, rec.ID, err)) // built from a validated record
		}
		msg = fmt.Sprintf("No answer to %q in time; the agent continued with the fallback answer %s.", rec.Question, rec.FallbackValue)
		b = Batch{expired, messages.MessageAdmitted{Envelope: in}}
	} else {
		msg = fmt.Sprintf("No answer to %q in time; the wait ended as failed (fallback policy fail).", rec.Question)
		b = Batch{expired, messages.BriefRecorded{Brief: messages.Brief{
			ID: env.NewID("brief"), AgentID: env.AgentID, Kind: messages.BriefFailure, Text: msg,
			RelatedMessageID: rec.MessageID, CreatedAt: env.Now,
		}}}
	}
	b = append(b, messages.OperatorNotificationRequested{Notification: NotificationOf(st, env, messages.NotifySuspensionExpired, msg, rec.ID)})
	if st.Status == messages.StatusSuspended {
		b = append(b, StatusChange(st, messages.StatusAwakeIdle, "suspension "+rec.ID+" expired"))
	}
	return b
}

// resumedStatus is the status a resumed agent returns to: suspended while
// a question is open, running while its turn is in flight (paused
// mid-turn), idle otherwise.
func ResumedStatus(st *State) messages.AgentStatus {
	if st.OpenSuspension() != nil {
		return messages.StatusSuspended
	}
	if st.Turn != nil { // paused mid-turn: the turn goes on
		return messages.StatusAwakeRunning
	}
	return messages.StatusAwakeIdle
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
