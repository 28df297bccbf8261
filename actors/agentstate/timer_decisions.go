package agentstate

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/holon-actors/holon-actors/messages"
)

// TimerRequest is a timer to create, as the agent's CreateTimer tool and
// the operator's control route send it: exactly one of At (RFC 3339),
// After (a Go duration), Every (a Go duration, optionally first at At)
// and Cron (with Zone). Empty strings are unset.
type TimerRequest struct {
	Message  string `json:"message"`
	At       string `json:"at,omitempty"`
	After    string `json:"after,omitempty"`
	Every    string `json:"every,omitempty"`
	Cron     string `json:"cron,omitempty"`
	Zone     string `json:"zone,omitempty"`
	Priority string `json:"priority,omitempty"`
	Until    string `json:"until,omitempty"`
	Count    int    `json:"count,omitempty"`
	Missed   string `json:"missed,omitempty"`
	Overlap  string `json:"overlap,omitempty"`
}

// maxTimerMessage bounds a timer's message.
const maxTimerMessage = 4096

// invalid wraps ErrTimerInvalid with what was wrong and what to send.
func invalid(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrTimerInvalid, fmt.Sprintf(format, args...))
}

// CreateTimer decides a new timer for the agent, created by by ("agent"
// or "operator"): the TimerCreated to journal, or a refusal wrapping
// ErrTimerInvalid, ErrTooManyTimers or ErrTimerTooFrequent that names the
// field and what to send instead. A refusal changes nothing.
func CreateTimer(st *State, env Env, by string, req TimerRequest) (messages.TimerCreated, error) {
	if n := len(st.UserTimers); n >= env.Cfg.Timers.max() {
		return messages.TimerCreated{}, fmt.Errorf("%w: the agent has %d timers, the limit is %d; cancel one first", ErrTooManyTimers, n, env.Cfg.Timers.max())
	}
	rec, err := timerRecord(env, by, req)
	if err != nil {
		return messages.TimerCreated{}, err
	}
	if err := checkInterval(rec, env); err != nil {
		return messages.TimerCreated{}, err
	}
	due, ok := nextRun(rec, env.Now)
	if !ok && rec.Until == nil {
		return messages.TimerCreated{}, invalid("cron %q never fires (a date that does not exist, such as 30 February?); give an expression that matches a real date", rec.Cron)
	}
	if !ok {
		return messages.TimerCreated{}, invalid("the timer would never fire: its first fire is after until")
	}
	return messages.TimerCreated{Record: rec, DueAt: due}, nil
}

// timerRecord validates req into a record.
func timerRecord(env Env, by string, req TimerRequest) (messages.TimerRecord, error) {
	rec := messages.TimerRecord{TimerID: env.NewID("tmr"), Message: strings.TrimSpace(req.Message), Start: env.Now.UTC(),
		Cron: strings.TrimSpace(req.Cron), Zone: req.Zone, Count: req.Count, CreatedBy: by, CreatedAt: env.Now.UTC(),
		Priority: messages.PriorityNormal, Missed: messages.MissedRunOnce, Overlap: messages.OverlapQueue}
	if rec.Message == "" || len(rec.Message) > maxTimerMessage {
		return rec, invalid("message must say what to do when the timer fires (1..%d bytes)", maxTimerMessage)
	}
	if err := timerPolicies(&rec, req); err != nil {
		return rec, err
	}
	if err := timerWhen(&rec, env, req); err != nil {
		return rec, err
	}
	if req.Count < 0 {
		return rec, invalid("count %d is negative; omit it for no end", req.Count)
	}
	if req.Until != "" {
		u, err := time.Parse(time.RFC3339, req.Until)
		if err != nil || !u.After(env.Now) {
			return rec, invalid("until %q must be a future RFC 3339 time such as 2026-12-31T23:00:00Z", req.Until)
		}
		u = u.UTC()
		rec.Until = &u
	}
	return rec, nil
}

// timerPolicies sets the band and the policies of req, or refuses them.
func timerPolicies(rec *messages.TimerRecord, req TimerRequest) error {
	if req.Priority != "" {
		p, err := messages.ParsePriority(req.Priority)
		if err != nil || p == messages.PriorityInterject {
			return invalid("priority %q: use next, normal or background (interject is the operator's)", req.Priority)
		}
		rec.Priority = p
	}
	if req.Missed != "" {
		p, err := messages.ParseMissedPolicy(req.Missed)
		if err != nil {
			return invalid("missed %q: use skip, run_once or run_all", req.Missed)
		}
		rec.Missed = p
	}
	if req.Overlap != "" {
		p, err := messages.ParseOverlapPolicy(req.Overlap)
		if err != nil {
			return invalid("overlap %q: use queue or skip", req.Overlap)
		}
		rec.Overlap = p
	}
	return nil
}

// timerWhen sets the schedule of req: at, after, every or cron+zone.
func timerWhen(rec *messages.TimerRecord, env Env, req TimerRequest) error {
	set := 0
	for _, s := range []string{req.After, req.Every, rec.Cron} {
		if s != "" {
			set++
		}
	}
	if set != 1 && !(set == 0 && req.At != "") {
		return invalid("give exactly one of at, after, every or cron (at may also start an every)")
	}
	if req.At != "" && (req.After != "" || rec.Cron != "") {
		return invalid("at goes alone or with every, not with after or cron")
	}
	if req.At != "" {
		at, err := time.Parse(time.RFC3339, req.At)
		if err != nil {
			return invalid("at %q is not an RFC 3339 time such as 2026-06-01T09:00:00+02:00", req.At)
		}
		if !at.After(env.Now) {
			return invalid("at %s is in the past (now is %s); give a future time or use after", req.At, env.Now.UTC().Format(time.RFC3339))
		}
		at = at.UTC()
		rec.At = &at
	}
	switch {
	case req.After != "":
		d, err := time.ParseDuration(req.After)
		if err != nil || d <= 0 {
			return invalid("after %q is not a positive duration such as 90s, 15m or 2h", req.After)
		}
		at := env.Now.Add(d).UTC()
		rec.At = &at
	case req.Every != "":
		d, err := time.ParseDuration(req.Every)
		if err != nil || d <= 0 {
			return invalid("every %q is not a positive duration such as 15m or 24h", req.Every)
		}
		if d < time.Millisecond {
			return invalid("every %q is shorter than a millisecond; give a duration such as 15m or 24h", req.Every)
		}
		rec.EveryMS = d.Milliseconds()
	case rec.Cron != "":
		if _, err := cronSchedule(rec.Cron); err != nil {
			return invalid("%v", err)
		}
		if rec.Zone == "Local" { // refused at creation only: a journaled one still loads
			return invalid("zone \"Local\" is the daemon host's zone, which can change under the timer; give an IANA time zone such as Europe/Paris or UTC")
		}
		if _, err := loadZone(rec.Zone); err != nil {
			return invalid("%v", err)
		}
	}
	if rec.Cron == "" && rec.Zone != "" {
		return invalid("zone goes with cron only")
	}
	return nil
}

// checkInterval refuses a recurring timer firing more often than the
// minimum interval: an every below it, or a cron whose next fires are
// closer (checked over its next fires from now).
func checkInterval(rec messages.TimerRecord, env Env) error {
	min := env.Cfg.Timers.minInterval()
	if rec.EveryMS > 0 && time.Duration(rec.EveryMS)*time.Millisecond < min {
		return fmt.Errorf("%w: every %v is shorter than the minimum interval %v", ErrTimerTooFrequent, time.Duration(rec.EveryMS)*time.Millisecond, min)
	}
	if rec.Cron == "" {
		return nil
	}
	probe := rec
	probe.Until = nil
	prev, ok := nextRun(probe, env.Now)
	for i := 0; ok && i < 16; i++ {
		next, more := nextRun(probe, prev)
		if more && next.Sub(prev) < min {
			return fmt.Errorf("%w: cron %q fires %v apart, the minimum interval is %v", ErrTimerTooFrequent, rec.Cron, next.Sub(prev), min)
		}
		prev, ok = next, more
	}
	return nil
}

// CancelTimer decides the cancel of timer id by by: the TimerCancelled,
// or ErrTimerNotFound.
func CancelTimer(st *State, id, by, reason string) (messages.TimerCancelled, error) {
	if _, ok := st.UserTimers[id]; !ok {
		return messages.TimerCancelled{}, fmt.Errorf("timer %q: %w", id, ErrTimerNotFound)
	}
	return messages.TimerCancelled{TimerID: id, By: by, Reason: reason}, nil
}

// PauseTimer decides the operator's pause of timer id; pausing a paused
// timer journals nothing (nil).
func PauseTimer(st *State, id string) (Batch, error) {
	ut, ok := st.UserTimers[id]
	if !ok {
		return nil, fmt.Errorf("timer %q: %w", id, ErrTimerNotFound)
	}
	if ut.Paused {
		return nil, nil
	}
	return Batch{messages.TimerPaused{TimerID: id}}, nil
}

// ResumeTimer decides the resume of timer id: its next fire is the first
// one after now (runs while paused are not owed). A timer with no fire
// left ends (a one-shot whose time passed while paused fires at once).
func ResumeTimer(st *State, env Env, id string) (Batch, error) {
	ut, ok := st.UserTimers[id]
	if !ok {
		return nil, fmt.Errorf("timer %q: %w", id, ErrTimerNotFound)
	}
	if !ut.Paused {
		return nil, nil
	}
	due, ok := nextRun(ut.Record, env.Now)
	if !ok {
		due = env.Now.UTC() // its last fire came due while paused: now
		if ut.Record.Recurring() {
			return Batch{messages.TimerCancelled{TimerID: id, By: "runtime", Reason: "ended while paused"}}, nil
		}
	}
	return Batch{messages.TimerResumed{TimerID: id, DueAt: due}}, nil
}

// TimerFire decides the fire of created timer id armed for its NextDueAt
// (fireID), at env.Now: which runs came due (the armed one and every later
// one by now, after downtime), which of them the missed and overlap
// policies deliver (none while the agent is over its token budget), the timer_tick messages that deliver them (runtime
// origin, the timer's band, each naming its fire and reporting the runs
// not delivered and how late), and the next due time. Nil for a stale
// fire (another fire id, a paused or gone timer). The TimerFired and the
// messages are one batch: a fire is delivered exactly once.
func TimerFire(st *State, env Env, id, fireID string) Batch {
	ut, ok := st.UserTimers[id]
	if !ok || ut.Paused || TimerFireID(id, ut.NextDueAt) != fireID {
		return nil
	}
	runs, total := dueRuns(ut, env.Now)
	deliver := pickRuns(ut.Record, runs, env.Now)
	if timerBusy(st, ut) || overBudget(st, env) {
		deliver = nil
	}
	fired := messages.TimerFired{TimerID: id, FireID: fireID, Skipped: total - len(deliver)}
	due := ut.NextDueAt
	fired.DueAt = &due
	if next, ok := timerNextAfter(ut, runs, len(deliver), env.Now); ok {
		fired.NextDueAt = &next
	}
	batch := Batch{nil}
	earliest := runs[0]
	for i, run := range deliver {
		missed := 0
		if i == len(deliver)-1 {
			missed = ut.Unreported + fired.Skipped
		}
		m := timerTick(env, ut, run, missed, earliest)
		batch = append(batch, messages.MessageAdmitted{Envelope: m})
		fired.MessageID = m.ID
	}
	fired.Delivered = len(deliver)
	batch[0] = fired
	if len(deliver) > 0 {
		batch = append(batch, WakeOnAdmit(st, "timer fired")...)
	}
	return batch
}

// RunTimerNow decides an operator's run-now of timer id: one delivered
// fire now, the schedule untouched.
func RunTimerNow(st *State, env Env, id string) (Batch, error) {
	ut, ok := st.UserTimers[id]
	if !ok {
		return nil, fmt.Errorf("timer %q: %w", id, ErrTimerNotFound)
	}
	now := env.Now.UTC()
	m := timerTick(env, ut, now, ut.Unreported, now)
	fired := messages.TimerFired{TimerID: id, FireID: TimerFireID(id, now) + "-now", Delivered: 1, MessageID: m.ID, Manual: true}
	return append(Batch{fired, messages.MessageAdmitted{Envelope: m}}, WakeOnAdmit(st, "timer run now")...), nil
}

// dueRuns are the runs of ut due by now, oldest first: its NextDueAt and
// the following ones, at most RunAllCap of them kept, with their total
// (bounded, for a very long downtime of a frequent timer) and the fires
// its count has left.
func dueRuns(ut *UserTimer, now time.Time) ([]time.Time, int) {
	const maxCounted = 100000
	left := maxCounted
	if ut.Record.Count > 0 {
		left = ut.Record.Count - ut.Fires
	}
	runs := []time.Time{ut.NextDueAt}
	total, last := 1, ut.NextDueAt
	for total < left {
		next, ok := nextRun(ut.Record, last)
		if !ok || next.After(now) {
			break
		}
		if len(runs) < RunAllCap {
			runs = append(runs, next)
		} else {
			runs[len(runs)-1] = next // keep the latest run last
		}
		total, last = total+1, next
	}
	return runs, total
}

// pickRuns are the runs the missed policy delivers: run_all each (the
// first RunAllCap−1 and the latest), run_once the latest, skip the latest
// when it is less than TimerGrace late.
func pickRuns(rec messages.TimerRecord, runs []time.Time, now time.Time) []time.Time {
	latest := runs[len(runs)-1]
	switch rec.Missed {
	case messages.MissedRunAll:
		return runs
	case messages.MissedSkip:
		if now.Sub(latest) > TimerGrace {
			return nil
		}
	}
	return []time.Time{latest}
}

// timerBusy reports the overlap policy holding a fire back: the previous
// fire's message still waits in the queue (queue, skip) or its turn runs
// (skip).
func timerBusy(st *State, ut *UserTimer) bool {
	if ut.LastMessageID == "" {
		return false
	}
	if inQueue(st, ut.LastMessageID) {
		return true
	}
	return ut.Record.Overlap == messages.OverlapSkip && st.Turn != nil && st.Turn.MessageID == ut.LastMessageID
}

// overBudget reports an agent whose token budget, or an ancestor's, is
// spent: a fire would only start a turn that fails at once, so it is held
// back and reported once a fire is delivered again.
func overBudget(st *State, env Env) bool {
	in := AgentInfo{TokenBudget: st.BudgetInfo()}
	ApplyBudgetDefault(&in, env.Cfg.DefaultTokenBudget)
	return in.TokenBudget.Exhausted || env.Ancestor != nil
}

// inQueue reports a message id waiting in the agent's queue.
func inQueue(st *State, id string) bool {
	for _, b := range st.Queue.Bands {
		for _, m := range b {
			if m.ID == id {
				return true
			}
		}
	}
	return false
}

// timerNextAfter is the timer's next due time after this fire: the first
// run after now, unless the count is used up by the delivered ones.
func timerNextAfter(ut *UserTimer, runs []time.Time, delivered int, now time.Time) (time.Time, bool) {
	if c := ut.Record.Count; c > 0 && ut.Fires+delivered >= c {
		return time.Time{}, false
	}
	after := runs[len(runs)-1]
	if now.After(after) {
		after = now
	}
	return nextRun(ut.Record, after)
}

// timerTick is the message delivering the run of ut due at due: the
// timer's message, then a runtime note naming the timer and the fire and
// reporting how late it is and how many runs were not delivered.
func timerTick(env Env, ut *UserTimer, due time.Time, missed int, earliest time.Time) messages.MessageEnvelope {
	id := ut.Record.TimerID
	fire := TimerFireID(id, due)
	late := env.Now.Sub(due).Round(time.Millisecond)
	note := fmt.Sprintf("[timer %s, fire %s, due %s", id, fire, due.UTC().Format(time.RFC3339))
	if late >= time.Second {
		note += fmt.Sprintf(", %v late", late.Round(time.Second))
	}
	if missed > 0 {
		note += fmt.Sprintf("; %d earlier run(s) not delivered (missed while the runtime was down or the agent busy or stopped, policy missed=%s overlap=%s; the earliest due %s)",
			missed, ut.Record.Missed, ut.Record.Overlap, earliest.UTC().Format(time.RFC3339))
	}
	note += "]"
	refs := map[string]string{"timer_id": id, "fire_id": fire, "due_at": due.UTC().Format(time.RFC3339Nano),
		"late_ms": strconv.FormatInt(late.Milliseconds(), 10), "missed": strconv.Itoa(missed)}
	return RuntimeEnvelope(env, messages.KindTimerTick, messages.TimerOrigin(id), messages.SurfaceTimerScheduler,
		ut.Record.Priority, ut.Record.Message+"\n\n"+note, refs)
}
