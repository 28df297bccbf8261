package runtimetools

import (
	"errors"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/holon-actors/holon-actors/actors/agentstate"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/tools"
)

// The timer tools' names.
const (
	CreateTimerToolName = "CreateTimer"
	ListTimersToolName  = "ListTimers"
	CancelTimerToolName = "CancelTimer"
)

// The timer tools' error kinds besides invalid_tool_input.
const (
	KindTimerNotFound = "timer_not_found"
	KindTimerLimit    = "timer_limit"
	// KindTimerOperators refuses the agent's cancel of a timer its
	// operator created: the operator's schedule is not the agent's to drop.
	KindTimerOperators = "timer_operators"
)

// CreateTimerArgs are CreateTimer's arguments (agentstate.TimerRequest).
type CreateTimerArgs struct {
	Message  string `json:"message" jsonschema:"What you are to do when the timer fires; it reaches you as a runtime timer message."`
	At       string `json:"at,omitempty" jsonschema:"Fire once at this RFC 3339 time (or first at it, with every)."`
	After    string `json:"after,omitempty" jsonschema:"Fire once after this duration, e.g. 90s, 15m, 2h."`
	Every    string `json:"every,omitempty" jsonschema:"Fire every this duration, e.g. 1h or 24h (at least the runtime's minimum interval, 1m by default)."`
	Cron     string `json:"cron,omitempty" jsonschema:"Fire on this five-field cron expression (minute hour day-of-month month day-of-week), read in zone."`
	Zone     string `json:"zone,omitempty" jsonschema:"IANA time zone of cron, e.g. Europe/Paris or UTC."`
	Priority string `json:"priority,omitempty" jsonschema:"Band of the delivered message: next, normal (default) or background."`
	Until    string `json:"until,omitempty" jsonschema:"No fires after this RFC 3339 time."`
	Count    int    `json:"count,omitempty" jsonschema:"End after this many delivered fires; omit for no end."`
	Missed   string `json:"missed,omitempty" jsonschema:"Runs missed while the runtime was down: skip, run_once (default) or run_all."`
	Overlap  string `json:"overlap,omitempty" jsonschema:"A fire while the previous fire's message still waits: queue (default, at most one pending) or skip."`
}

// AdjustSchema adds the enums.
func (CreateTimerArgs) AdjustSchema(s *jsonschema.Schema) {
	s.Properties["priority"].Enum = []any{"next", "normal", "background"}
	s.Properties["missed"].Enum = []any{"skip", "run_once", "run_all"}
	s.Properties["overlap"].Enum = []any{"queue", "skip"}
	s.Properties["count"].Minimum = Ptr(0.0)
}

// ListTimersArgs are ListTimers' arguments: none.
type ListTimersArgs struct{}

// CancelTimerArgs are CancelTimer's arguments.
type CancelTimerArgs struct {
	TimerID string `json:"timer_id" jsonschema:"The timer to cancel (from CreateTimer or ListTimers)."`
	Reason  string `json:"reason,omitempty" jsonschema:"Why, for the journal."`
}

// TimerResult is the result of a timer tool: the timer it created, or the
// agent's timers.
type TimerResult struct {
	Timer  *agentstate.TimerView  `json:"timer,omitempty"`
	Timers []agentstate.TimerView `json:"timers,omitempty"`
}

// timerToolset are the timer tools; the agent decides them (Decisions).
var timerToolset = []tools.Tool{
	tools.Typed(CreateTimerToolName,
		"Schedule a message to yourself: once (at or after), every interval, or on a cron expression in a time zone. "+
			"When it fires you get the message as a runtime timer message, with how late it is and how many runs were missed. "+
			"Give exactly one of at, after, every or cron.",
		echoArgs[CreateTimerArgs](CreateTimerToolName)),
	tools.Typed(ListTimersToolName, "List your timers: schedule, next fire and fires so far.",
		echoArgs[ListTimersArgs](ListTimersToolName)),
	tools.Typed(CancelTimerToolName, "Cancel one of your timers.", echoArgs[CancelTimerArgs](CancelTimerToolName)),
}

// CreateTimer decides a CreateTimer call: the timer, scoped to the
// calling agent, or a refusal that changes nothing.
func CreateTimer(st *agentstate.State, env agentstate.Env, a CreateTimerArgs) Decision {
	c, err := agentstate.CreateTimer(st, env, "agent", agentstate.TimerRequest(a))
	if err != nil {
		kind, hint := tools.KindInvalidToolInput, "fix the named field and call again"
		if errors.Is(err, agentstate.ErrTooManyTimers) {
			kind, hint = KindTimerLimit, "cancel a timer you no longer need (ListTimers, CancelTimer)"
		}
		return Decision{Result: tools.Failure(CreateTimerToolName, messages.ToolError, tools.ToolError{Kind: kind, Message: err.Error(), RecoveryHint: hint})}
	}
	v := agentstate.TimerView{TimerRecord: c.Record}
	due := c.DueAt
	v.NextDueAt = &due
	return Decision{Batch: agentstate.Batch{c},
		Result: tools.Success(CreateTimerToolName, "Timer "+c.Record.TimerID+" created; next fire "+due.Format("2006-01-02T15:04:05Z07:00")+".", TimerResult{Timer: &v})}
}

// ListTimers answers with the calling agent's timers.
func ListTimers(st *agentstate.State, _ agentstate.Env, _ ListTimersArgs) Decision {
	ts := agentstate.TimerViews(st)
	summary := "No timers."
	if len(ts) > 0 {
		summary = "Your timers, the next due first."
	}
	return Decision{Result: tools.Success(ListTimersToolName, summary, TimerResult{Timers: ts})}
}

// CancelTimer decides a CancelTimer call on one of the calling agent's
// timers; another agent's timer id is unknown here, and a timer the
// operator created is refused (an instruction injected into a turn must
// not drop the operator's schedule).
func CancelTimer(st *agentstate.State, _ agentstate.Env, a CancelTimerArgs) Decision {
	if ut, ok := st.UserTimers[a.TimerID]; ok && ut.Record.CreatedBy == "operator" {
		return Decision{Result: tools.Failure(CancelTimerToolName, messages.ToolError, tools.ToolError{Kind: KindTimerOperators,
			Message:      "timer " + a.TimerID + " was created by your operator; only the operator can cancel it",
			RecoveryHint: "leave it, or tell the operator why it should go (holon-actors timers cancel " + a.TimerID + ")"})}
	}
	c, err := agentstate.CancelTimer(st, a.TimerID, "agent", a.Reason)
	if err != nil {
		return Decision{Result: tools.Failure(CancelTimerToolName, messages.ToolError, tools.ToolError{Kind: KindTimerNotFound,
			Message: "no timer " + a.TimerID + " of yours", RecoveryHint: "call ListTimers for your timers' ids"})}
	}
	return Decision{Batch: agentstate.Batch{c}, Result: tools.Success(CancelTimerToolName, "Timer "+a.TimerID+" cancelled.", nil)}
}
