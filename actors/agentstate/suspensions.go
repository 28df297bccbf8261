package agentstate

import (
	"encoding/json"
	"github.com/holon-actors/holon-actors/tools"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/holon-actors/holon-actors/messages"
)

// closedSuspensionLimit bounds the settled suspensions an agent keeps
// (to answer a repeated answer the same way, and to list them).
const closedSuspensionLimit = 64

// applySuspensionRequested records a new open suspension.
func (s *State) applySuspensionRequested(p messages.SuspensionRequested) {
	if s.Suspensions == nil {
		s.Suspensions = make(map[string]*messages.SuspensionRecord)
	}
	r := p.Suspension
	s.Suspensions[r.ID] = &r
}

// settleSuspension closes suspension id with resp, and drops the oldest
// closed ones beyond the limit.
func (s *State) settleSuspension(id string, resp messages.InputResponse) {
	r, ok := s.Suspensions[id]
	if !ok || !r.Open() {
		return
	}
	at := resp.RespondedAt
	r.Resolution, r.Response, r.RespondedAt, r.RespondedBy = resp.Resolution, resp.Value, &at, resp.RespondedBy
	if r.DeadlineTimerID != "" {
		// Its fire, if it comes, finds no timer and changes nothing.
		delete(s.Timers, r.DeadlineTimerID)
		if len(s.Timers) == 0 {
			s.Timers = nil
		}
		r.DeadlineTimerID = ""
	}
	var closed []*messages.SuspensionRecord
	for _, x := range s.Suspensions {
		if !x.Open() {
			closed = append(closed, x)
		}
	}
	if len(closed) <= closedSuspensionLimit {
		return
	}
	sort.Slice(closed, func(i, j int) bool { return closed[i].RespondedAt.Before(*closed[j].RespondedAt) })
	for _, x := range closed[:len(closed)-closedSuspensionLimit] {
		delete(s.Suspensions, x.ID)
	}
}

// applySuspensionExpired settles an expired suspension; a failed wait
// fails the closure the suspension had left waiting.
func (s *State) applySuspensionExpired(p messages.SuspensionExpired, at time.Time) {
	resp := messages.InputResponse{SuspensionID: p.SuspensionID, Resolution: messages.ResolutionExpired, RespondedAt: at}
	if p.Response != nil {
		resp = *p.Response
	}
	s.settleSuspension(p.SuspensionID, resp)
	if !p.Policy.Resumes() {
		s.LastClosure = &messages.Closure{Outcome: messages.OutcomeFailed}
	}
}

// OpenSuspension returns the agent's open suspension, if any (there is at
// most one: a suspended agent runs no turn that could ask another).
func (s *State) OpenSuspension() *messages.SuspensionRecord {
	for _, r := range s.Suspensions {
		if r.Open() {
			return r
		}
	}
	return nil
}

// openSuspensionIDs lists the open suspensions' ids, sorted.
func (s *State) openSuspensionIDs() []string {
	var ids []string
	for id, r := range s.Suspensions {
		if r.Open() {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	return ids
}

// SuspensionList is every kept suspension, newest first.
func (s *State) SuspensionList() []messages.SuspensionRecord {
	out := make([]messages.SuspensionRecord, 0, len(s.Suspensions))
	for _, r := range s.Suspensions {
		out = append(out, *r)
	}
	sort.Slice(out, func(i, j int) bool {
		if !out[i].SuspendedAt.Equal(out[j].SuspendedAt) {
			return out[i].SuspendedAt.After(out[j].SuspendedAt)
		}
		return out[i].ID > out[j].ID
	})
	return out
}

// Record turns the question into the parts of a SuspensionRecord it
// decides.
func (a *AskState) Record() (messages.SuspensionRecord, error) {
	r := messages.SuspensionRecord{Question: strings.TrimSpace(a.Question), ResponseType: messages.ResponseChoice,
		FallbackPolicy: messages.FallbackFail, ChannelHint: a.ChannelHint, TimeoutSeconds: a.TimeoutSeconds,
		ConfidenceAtSuspension: a.Confidence}
	if a.ResponseType != "" {
		r.ResponseType = messages.ResponseType(a.ResponseType)
	}
	if a.FallbackPolicy != "" {
		r.FallbackPolicy = messages.FallbackPolicy(a.FallbackPolicy)
	}
	if !r.ResponseType.Valid() || !r.FallbackPolicy.Valid() {
		return r, &tools.FieldError{Field: "response_type", Problem: "unknown response type or fallback policy"}
	}
	for _, c := range a.Choices {
		r.Choices = append(r.Choices, messages.SuspensionChoice{Value: c.Value, Label: c.Label, Description: c.Description, Style: c.Style})
	}
	if len(a.Context) > 0 {
		r.Context, _ = json.Marshal(a.Context)
	}
	if a.FallbackValue != "" {
		r.FallbackValue = AnswerJSON(r.ResponseType, a.FallbackValue)
	}
	if p := a.RetryPolicy; p != nil {
		r.RetryPolicy = &messages.HumanRetryPolicy{IntervalSeconds: p.IntervalSeconds, MaxAttempts: p.MaxAttempts,
			FinalFallbackPolicy: messages.FallbackPolicy(p.FinalFallbackPolicy)}
		if p.FinalFallbackPolicy != "" && !r.RetryPolicy.FinalFallbackPolicy.Valid() {
			return r, &tools.FieldError{Field: "retry_policy.final_fallback_policy", Problem: "is not a fallback policy"}
		}
	}
	return r, nil
}

// Signals are the engagement signals the question carries, if any.
func (a *AskState) Signals() (messages.EngagementSignals, bool) {
	s := messages.EngagementSignals{Confidence: a.Confidence, Risk: a.Risk, Reversibility: a.Reversibility}
	return s, a.Confidence != nil || a.Risk != nil || a.Reversibility != nil
}

// AnswerJSON is the JSON of a textual answer: a form's JSON object as is,
// anything else as a JSON string.
func AnswerJSON(t messages.ResponseType, v string) json.RawMessage {
	if t == messages.ResponseForm && json.Valid([]byte(v)) {
		return json.RawMessage(v)
	}
	b, _ := json.Marshal(v)
	return b
}
