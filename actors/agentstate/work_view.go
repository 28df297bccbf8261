package agentstate

import (
	"time"

	"github.com/holon-actors/holon-actors/messages"
)

// The read model of work items that surfaces and the prompt share.

// Readiness is the compatibility label projected from a SchedulingState.
type Readiness string

// The readiness labels.
const (
	ReadyRunnable           Readiness = "runnable"
	ReadyWaitingForOperator Readiness = "waiting_for_operator"
	ReadyBlocked            Readiness = "blocked"
	ReadyCompleted          Readiness = "completed"
)

// ReadinessOf projects a scheduling state onto the readiness labels.
func ReadinessOf(st SchedulingState) Readiness {
	switch st {
	case SchedRunnable:
		return ReadyRunnable
	case SchedWaitingOperator:
		return ReadyWaitingForOperator
	case SchedCompleted:
		return ReadyCompleted
	}
	return ReadyBlocked
}

// CompletionReport is the promoted report of a completed work item.
type CompletionReport struct {
	Text      string    `json:"text"`
	TurnID    string    `json:"turn_id,omitempty"`
	CreatedAt time.Time `json:"created_at"`
	// Source is delivery_summary, or result_summary for an item whose
	// delivery summary is no longer in the agent's state.
	Source string `json:"source"`
}

// ReportOf is the completion report of a completed rec: its delivery
// summary d, falling back to its result summary; nil when it has neither.
func ReportOf(d *messages.DeliverySummaryRecord, rec *messages.WorkItemRecord) *CompletionReport {
	switch {
	case rec.Open():
		return nil
	case d != nil:
		return &CompletionReport{Text: d.Text, TurnID: d.TurnID, CreatedAt: d.CreatedAt, Source: "delivery_summary"}
	case rec.ResultSummary != "":
		return &CompletionReport{Text: rec.ResultSummary, CreatedAt: rec.UpdatedAt, Source: "result_summary"}
	}
	return nil
}

// WorkItemView is a work item as read surfaces show it: the record, its
// derived scheduling state, the plan artifact descriptor instead of an
// inline plan, and for a completed item its completion report.
type WorkItemView struct {
	messages.WorkItemRecord
	Current          bool              `json:"current"`
	SchedulingState  SchedulingState   `json:"scheduling_state"`
	Readiness        Readiness         `json:"readiness"`
	PlanArtifact     *PlanArtifact     `json:"plan_artifact,omitempty"`
	CompletionReport *CompletionReport `json:"completion_report,omitempty"`
}

// ViewOf is the read view of rec without its plan artifact (the agent
// reads the plan file off the actor).
func ViewOf(st *State, rec *messages.WorkItemRecord, current bool) WorkItemView {
	sched := st.Scheduling(rec)
	return WorkItemView{WorkItemRecord: rec.Clone(), Current: current, SchedulingState: sched, Readiness: ReadinessOf(sched),
		CompletionReport: ReportOf(st.DeliverySummaryOf(rec.ID), rec)}
}
