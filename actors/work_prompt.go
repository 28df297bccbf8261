package actors

import (
	"fmt"
	"strings"
	"time"

	"github.com/holon-actors/holon-actors/actors/agentstate"
	"github.com/holon-actors/holon-actors/messages"
)

// Bounds of the work-queue projection.
const (
	projectedPerLabel     = 8 // non-current candidates shown per readiness label
	projectedCompleted    = 3 // completed items with reports shown
	projectedReportChars  = 400
	projectedBlockerChars = 300
)

// WorkItemReminder configures the stale-progress reminder: during a long
// provider turn, after Rounds consecutive model rounds without a
// successful work-item mutation, the next request (only) carries a
// reminder of the current work item, then again every CooldownRounds
// rounds; it is cut to MaxTokens (4 characters a token). Zero fields mean
// the defaults; a negative Rounds disables the reminder.
type WorkItemReminder struct {
	Rounds         int
	CooldownRounds int
	MaxTokens      int
}

// The reminder defaults (HOLON_WORK_ITEM_STALE_REMINDER_ROUNDS,
// _COOLDOWN_ROUNDS and _MAX_TOKENS override them in cmd).
const (
	DefaultStaleReminderRounds         = 8
	DefaultStaleReminderCooldownRounds = 4
	DefaultStaleReminderMaxTokens      = 400
)

func (c WorkItemReminder) withDefaults() WorkItemReminder {
	if c.Rounds == 0 {
		c.Rounds = DefaultStaleReminderRounds
	}
	if c.CooldownRounds <= 0 {
		c.CooldownRounds = DefaultStaleReminderCooldownRounds
	}
	if c.MaxTokens <= 0 {
		c.MaxTokens = DefaultStaleReminderMaxTokens
	}
	return c
}

// workQueueContext is the work-queue part of the turn's context block: ""
// when the agent has no work items (the prompt is then unchanged).
func (a *agent) workQueueContext() string {
	if len(a.state.WorkItems) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("\n\nWork queue (durable; the work-item store is authoritative).")
	if c := a.state.CurrentWorkItem(); c != nil {
		b.WriteString("\nCurrent work item:\n")
		a.writeCurrentItem(&b, c)
	} else {
		b.WriteString("\nNo current work item: call " + agentstate.PickWorkItemToolName + " to focus on one.")
	}
	a.writeCandidates(&b)
	if r := a.staleReminder(); r != "" {
		b.WriteString("\n\n" + r)
	}
	return b.String()
}

// writeCurrentItem projects the whole current item: objective, state,
// plan artifact preview, checklist and blocker.
func (a *agent) writeCurrentItem(b *strings.Builder, r *messages.WorkItemRecord) {
	v := a.viewOf(r, true)
	fmt.Fprintf(b, "- %s [%s, plan %s]: %s\n", r.ID, v.SchedulingState, r.PlanStatus, r.Objective)
	if p := v.PlanArtifact; p != nil {
		more := ""
		if !p.PreviewComplete {
			more = " (preview cut; read the file for the rest)"
		}
		fmt.Fprintf(b, "  Plan file %s, %d bytes%s:\n%s\n", p.Path, p.Bytes, more, indent(p.Preview, "    "))
	}
	if len(r.TodoList) > 0 {
		b.WriteString("  Todo:\n")
		for _, t := range r.TodoList {
			fmt.Fprintf(b, "    - [%s] %s\n", t.State, t.Text)
		}
	}
	if r.BlockedBy != "" {
		fmt.Fprintf(b, "  Blocked by: %s%s\n", truncate(r.BlockedBy, projectedBlockerChars), recheckNote(r))
	}
	if trace := a.state.WorkTrace[r.ID]; len(trace) > 0 {
		b.WriteString("  Recent progress on it (your earlier turns, oldest first):\n")
		for _, l := range trace {
			fmt.Fprintf(b, "    - %s\n", l)
		}
	}
}

func recheckNote(r *messages.WorkItemRecord) string {
	switch {
	case r.RecheckAt == nil:
		return ""
	case r.RecheckConsumedAt != nil:
		return fmt.Sprintf(" (recheck reminder delivered %s)", r.RecheckConsumedAt.Format(time.RFC3339))
	}
	return fmt.Sprintf(" (recheck at %s)", r.RecheckAt.Format(time.RFC3339))
}

// The projection labels of non-current candidates, in projection order.
const (
	labelTriggeredBlocked   = "triggered_blocked"
	labelQueuedRunnable     = "queued_runnable"
	labelWaitingForOperator = "waiting_for_operator"
	labelBlocked            = "blocked"
	labelCompletedRecent    = "completed_recent"
)

var candidateLabels = []string{labelTriggeredBlocked, labelQueuedRunnable, labelWaitingForOperator, labelBlocked, labelCompletedRecent}

// candidateLabel is the projection label of a non-current item: a blocked
// item whose recheck is due and not yet consumed is triggered_blocked.
// Completed items show only with a promoted completion report ("" hides
// an item).
func (a *agent) candidateLabel(r *messages.WorkItemRecord, now time.Time) string {
	switch readiness(a.state.Scheduling(r)) {
	case ReadyRunnable:
		return labelQueuedRunnable
	case ReadyWaitingForOperator:
		return labelWaitingForOperator
	case ReadyCompleted:
		if reportOf(a.state.DeliverySummaryOf(r.ID), r) == nil {
			return ""
		}
		return labelCompletedRecent
	}
	if r.RecheckAt != nil && r.RecheckConsumedAt == nil && !now.Before(*r.RecheckAt) {
		return labelTriggeredBlocked
	}
	return labelBlocked
}

// writeCandidates projects the non-current items by label, bounded.
func (a *agent) writeCandidates(b *strings.Builder) {
	now := a.deps.Clock.Now()
	byLabel := map[string][]*messages.WorkItemRecord{}
	for _, r := range a.state.WorkItemsSorted() {
		if r.ID == a.state.CurrentWorkItemID && r.Open() {
			continue
		}
		if l := a.candidateLabel(r, now); l != "" {
			byLabel[l] = append(byLabel[l], r)
		}
	}
	for _, l := range candidateLabels {
		items, limit := byLabel[l], projectedPerLabel
		if len(items) == 0 {
			continue
		}
		if l == labelCompletedRecent {
			limit = projectedCompleted
			items = items[max(0, len(items)-limit):] // the newest
		}
		fmt.Fprintf(b, "\n%s:", l)
		for i, r := range items {
			if i == limit {
				fmt.Fprintf(b, "\n- … and %d more", len(items)-limit)
				break
			}
			fmt.Fprintf(b, "\n- %s: %s", r.ID, r.Objective)
			switch l {
			case labelTriggeredBlocked, labelBlocked:
				fmt.Fprintf(b, " (blocked by: %s)", truncate(r.BlockedBy, projectedBlockerChars))
			case labelCompletedRecent:
				rep := reportOf(a.state.DeliverySummaryOf(r.ID), r)
				fmt.Fprintf(b, "\n  Report: %s", truncate(rep.Text, projectedReportChars))
			}
		}
	}
}

// staleReminder is the provider-only progress reminder of this request,
// "" when none is due: after Rounds model rounds of the turn without a
// successful work-item mutation, then every CooldownRounds rounds. It is
// derived from the turn's bound (or the current) item and carried by this
// request only; it records nothing.
func (a *agent) staleReminder() string {
	cfg, t := a.deps.WorkItemReminder.withDefaults(), a.state.Turn
	if cfg.Rounds < 0 || t == nil {
		return ""
	}
	var last uint32
	var r *messages.WorkItemRecord
	if t.Work != nil {
		last, r = t.Work.LastMutationRound, a.state.WorkItemOf(t.Work.BoundItemID)
	}
	if r == nil || !r.Open() {
		r = a.state.CurrentWorkItem()
	}
	k := int(t.Round) - int(last)
	if r == nil || k < cfg.Rounds || (k-cfg.Rounds)%cfg.CooldownRounds != 0 {
		return ""
	}
	head := fmt.Sprintf("Work-item reminder: %d model rounds passed without a work-item update. Current work item %s "+
		"(plan %s): %s.", k, r.ID, r.PlanStatus, r.Objective)
	tail := "\nUpdate it (" + agentstate.UpdateWorkItemToolName + ", " + agentstate.CompleteWorkItemToolName + ") only if material " +
		"progress, a scope change, a blocker or a finished checklist item actually emerged."
	var b strings.Builder
	if r.BlockedBy != "" {
		fmt.Fprintf(&b, "\nBlocked by: %s", r.BlockedBy)
	}
	for _, td := range r.TodoList {
		if td.State != messages.TodoCompleted {
			fmt.Fprintf(&b, "\n- [%s] %s", td.State, td.Text)
		}
	}
	// The guidance is kept whole; the snapshot is cut to what fits.
	budget := cfg.MaxTokens * 4
	head, _ = agentstate.CutRunes(head, max(0, budget-len([]rune(tail))))
	body, _ := agentstate.CutRunes(b.String(), max(0, budget-len([]rune(tail))-len([]rune(head))))
	s, _ := agentstate.CutRunes(head+body+tail, budget)
	return s
}

func indent(s, prefix string) string {
	return prefix + strings.ReplaceAll(strings.TrimRight(s, "\n"), "\n", "\n"+prefix)
}
