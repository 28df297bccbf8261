package agentstate

import (
	"fmt"
	"strings"
	"time"

	"github.com/holon-actors/holon-actors/messages"
)

// Bounds of the work-queue projection.
const (
	projectedPerLabel     = 8 // non-current candidates shown per readiness label
	projectedCompleted    = 3 // completed items with reports shown
	projectedReportChars  = 400
	projectedBlockerChars = 300
)

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
func workQueueContext(st *State, env Env) string {
	if len(st.WorkItems) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("\n\nWork queue (durable; the work-item store is authoritative).")
	if c := st.CurrentWorkItem(); c != nil {
		b.WriteString("\nCurrent work item:\n")
		writeCurrentItem(st, env, &b, c)
	} else {
		b.WriteString("\nNo current work item: call " + PickWorkItemToolName + " to focus on one.")
	}
	writeCandidates(st, env, &b)
	if r := staleReminder(st, env); r != "" {
		b.WriteString("\n\n" + r)
	}
	return b.String()
}

// writeCurrentItem projects the whole current item: objective, state,
// plan artifact preview (env.Plans), checklist and blocker.
func writeCurrentItem(st *State, env Env, b *strings.Builder, r *messages.WorkItemRecord) {
	fmt.Fprintf(b, "- %s [%s, plan %s]: %s\n", r.ID, st.Scheduling(r), r.PlanStatus, r.Objective)
	if p := env.plan(r.ID); p != nil {
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
	if trace := st.WorkTrace[r.ID]; len(trace) > 0 {
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
func candidateLabel(st *State, r *messages.WorkItemRecord, now time.Time) string {
	switch ReadinessOf(st.Scheduling(r)) {
	case ReadyRunnable:
		return labelQueuedRunnable
	case ReadyWaitingForOperator:
		return labelWaitingForOperator
	case ReadyCompleted:
		if ReportOf(st.DeliverySummaryOf(r.ID), r) == nil {
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
func writeCandidates(st *State, env Env, b *strings.Builder) {
	now := env.Now
	byLabel := map[string][]*messages.WorkItemRecord{}
	for _, r := range st.WorkItemsSorted() {
		if r.ID == st.CurrentWorkItemID && r.Open() {
			continue
		}
		if l := candidateLabel(st, r, now); l != "" {
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
				rep := ReportOf(st.DeliverySummaryOf(r.ID), r)
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
func staleReminder(st *State, env Env) string {
	cfg, t := env.Cfg.WorkItemReminder.withDefaults(), st.Turn
	if cfg.Rounds < 0 || t == nil {
		return ""
	}
	var last uint32
	var r *messages.WorkItemRecord
	if t.Work != nil {
		last, r = t.Work.LastMutationRound, st.WorkItemOf(t.Work.BoundItemID)
	}
	if r == nil || !r.Open() {
		r = st.CurrentWorkItem()
	}
	k := int(t.Round) - int(last)
	if r == nil || k < cfg.Rounds || (k-cfg.Rounds)%cfg.CooldownRounds != 0 {
		return ""
	}
	head := fmt.Sprintf("Work-item reminder: %d model rounds passed without a work-item update. Current work item %s "+
		"(plan %s): %s.", k, r.ID, r.PlanStatus, r.Objective)
	tail := "\nUpdate it (" + UpdateWorkItemToolName + ", " + CompleteWorkItemToolName + ") only if material " +
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
	head, _ = CutRunes(head, max(0, budget-len([]rune(tail))))
	body, _ := CutRunes(b.String(), max(0, budget-len([]rune(tail))-len([]rune(head))))
	s, _ := CutRunes(head+body+tail, budget)
	return s
}

func indent(s, prefix string) string {
	return prefix + strings.ReplaceAll(strings.TrimRight(s, "\n"), "\n", "\n"+prefix)
}

// plan is the plan artifact of work item id, nil when there is none or no
// reader.
func (env Env) plan(id string) *PlanArtifact {
	if env.Plans == nil {
		return nil
	}
	return env.Plans(id)
}
