package agentstate

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/holon-actors/holon-actors/messages"
)

// timerRig is an agent's journal of created-timer events on an injected
// clock: commit applies a batch and keeps it, crash rebuilds the state
// from the kept events alone, as a restart does.
type timerRig struct {
	t       *testing.T
	env     Env
	st      *State
	journal []struct {
		at time.Time
		p  messages.Payload
	}
}

func newTimerRig(t *testing.T) *timerRig {
	return &timerRig{t: t, env: testEnv(), st: &State{ID: "a1", Status: messages.StatusAwakeIdle}}
}

func (r *timerRig) at(d time.Duration) { r.env.Now = testNow.Add(d) }

func (r *timerRig) commit(b Batch) {
	r.t.Helper()
	applyAll(r.t, r.st, r.env.Now, b...)
	for _, p := range b {
		r.journal = append(r.journal, struct {
			at time.Time
			p  messages.Payload
		}{r.env.Now, p})
	}
}

func (r *timerRig) crash() {
	r.t.Helper()
	r.st = &State{ID: "a1", Status: messages.StatusAwakeIdle}
	for _, e := range r.journal {
		applyAll(r.t, r.st, e.at, e.p)
	}
}

func (r *timerRig) create(req TimerRequest) string {
	r.t.Helper()
	c, err := CreateTimer(r.st, r.env, "operator", req)
	if err != nil {
		r.t.Fatalf("CreateTimer: %v", err)
	}
	r.commit(Batch{c})
	return c.Record.TimerID
}

// fire fires timer id as the timer service does: with the fire id of its
// armed due time, at the rig's now.
func (r *timerRig) fire(id string) (Batch, messages.TimerFired) {
	r.t.Helper()
	ut := r.st.UserTimers[id]
	if ut == nil {
		r.t.Fatalf("timer %s is gone", id)
	}
	b := TimerFire(r.st, r.env, id, TimerFireID(id, ut.NextDueAt))
	if b == nil {
		r.t.Fatalf("fire of %s decided nothing", id)
	}
	r.commit(b)
	return b, b[0].(messages.TimerFired)
}

// handled runs the turn of timer id's last delivered message to its end.
func (r *timerRig) handled(id string) {
	r.t.Helper()
	m := r.st.UserTimers[id].LastMessageID
	r.commit(Batch{messages.MessageProcessingStarted{MessageID: m, TurnID: "turn-" + m, TurnIndex: r.st.TurnIndex + 1}})
	r.commit(Batch{messages.TurnTerminal{TurnID: "turn-" + m, MessageID: m, Kind: messages.TerminalCompleted,
		Closure: messages.Closure{Outcome: messages.OutcomeCompleted}}})
}

func ticks(b Batch) []messages.MessageEnvelope {
	var out []messages.MessageEnvelope
	for _, p := range b {
		if m, ok := p.(messages.MessageAdmitted); ok {
			out = append(out, m.Envelope)
		}
	}
	return out
}

// TestTimerMissedPolicies: an hourly timer fires once on time, the runtime
// crashes, and comes back 4½ hours later; each missed policy delivers what
// it promises, reports the runs it did not deliver, and keeps the
// timer's phase.
func TestTimerMissedPolicies(t *testing.T) {
	tests := []struct {
		policy        string
		downtime      time.Duration
		wantDelivered int
		wantSkipped   int
		wantReport    string // in the last delivered message
	}{
		{"run_once", 4*time.Hour + 30*time.Minute, 1, 3, "3 earlier run(s) not delivered"},
		{"run_all", 4*time.Hour + 30*time.Minute, 4, 0, "fire "},
		{"run_all", 20*time.Hour + 30*time.Minute, RunAllCap, 20 - RunAllCap, "10 earlier run(s) not delivered"},
		{"skip", 4*time.Hour + 30*time.Minute, 0, 4, ""},
		{"skip", 4*time.Hour + 30*time.Second, 1, 3, "3 earlier run(s) not delivered"},
	}
	for _, tc := range tests {
		t.Run(tc.policy+"/"+tc.downtime.String(), func(t *testing.T) {
			r := newTimerRig(t)
			id := r.create(TimerRequest{Message: "Check the build.", Every: "1h", Missed: tc.policy})
			r.at(time.Hour + 50*time.Millisecond)
			if b, f := r.fire(id); f.Delivered != 1 || len(ticks(b)) != 1 {
				t.Fatalf("on-time fire delivered %d", f.Delivered)
			}
			r.handled(id)

			r.crash()
			r.at(time.Hour + tc.downtime)
			b, f := r.fire(id)
			ms := ticks(b)
			if f.Delivered != tc.wantDelivered || len(ms) != tc.wantDelivered || f.Skipped != tc.wantSkipped {
				t.Fatalf("after downtime: delivered %d (%d messages), skipped %d; want %d, %d", f.Delivered, len(ms), f.Skipped, tc.wantDelivered, tc.wantSkipped)
			}
			if want := testNow.Add(time.Duration(int(tc.downtime/time.Hour)+2) * time.Hour); f.NextDueAt == nil || !f.NextDueAt.Equal(want) {
				t.Errorf("next due %v, want %v (the timer's phase)", f.NextDueAt, want)
			}
			if len(ms) > 0 {
				last := ms[len(ms)-1]
				if text := last.Body.Text; !strings.Contains(text, tc.wantReport) || !strings.Contains(text, "late") && tc.policy != "run_all" {
					t.Errorf("delivered %q, want it to report %q and how late", text, tc.wantReport)
				}
				if last.Origin.Kind != messages.OriginTimer || last.AuthorityClass != messages.AuthorityRuntimeInstruction {
					t.Errorf("delivered as %s with authority %s, want a timer origin with runtime instruction authority", last.Origin.Kind, last.AuthorityClass)
				}
				return
			}
			// skip delivered nothing: the next fire on time reports them.
			r.at(f.NextDueAt.Sub(testNow))
			b, f = r.fire(id)
			if ms := ticks(b); f.Delivered != 1 || !strings.Contains(ms[0].Body.Text, "4 earlier run(s) not delivered") {
				t.Errorf("next fire delivered %d: %v, want it to report the 4 skipped runs", f.Delivered, ms)
			}
		})
	}
}

// TestTimerOverlap: a fire while the previous fire's message still waits
// is held back under both policies (one pending at most); while its turn
// runs, queue delivers and skip does not. The held-back runs are reported.
func TestTimerOverlap(t *testing.T) {
	for _, tc := range []struct {
		policy          string
		deliveredInTurn int
	}{{"queue", 1}, {"skip", 0}} {
		t.Run(tc.policy, func(t *testing.T) {
			r := newTimerRig(t)
			id := r.create(TimerRequest{Message: "Poll the queue.", Every: "1m", Overlap: tc.policy})
			r.at(time.Minute)
			r.fire(id)
			first := r.st.UserTimers[id].LastMessageID
			for i := 2; i <= 4; i++ { // the agent is busy elsewhere, over budget or paused: the message waits
				r.at(time.Duration(i) * time.Minute)
				if _, f := r.fire(id); f.Delivered != 0 || f.Skipped != 1 {
					t.Fatalf("fire %d while the first waits: delivered %d skipped %d, want 0, 1", i, f.Delivered, f.Skipped)
				}
			}
			if r.st.Queue.Len() != 1 || r.st.UserTimers[id].Unreported != 3 {
				t.Fatalf("queue %d, unreported %d; want 1 message pending and 3 reported later", r.st.Queue.Len(), r.st.UserTimers[id].Unreported)
			}
			r.commit(Batch{messages.MessageProcessingStarted{MessageID: first, TurnID: "turn-1", TurnIndex: 1}})
			r.at(5 * time.Minute)
			b, f := r.fire(id)
			if f.Delivered != tc.deliveredInTurn {
				t.Fatalf("fire while its turn runs delivered %d, want %d", f.Delivered, tc.deliveredInTurn)
			}
			if tc.deliveredInTurn == 1 && !strings.Contains(ticks(b)[0].Body.Text, "3 earlier run(s) not delivered") {
				t.Errorf("delivered %q, want the 3 held-back runs reported", ticks(b)[0].Body.Text)
			}
		})
	}
}

// TestTimerFireOnce: a fire is applied once, live and after a crash; a
// fire of a cancelled timer (cancel during a fire) does nothing.
func TestTimerFireOnce(t *testing.T) {
	r := newTimerRig(t)
	id := r.create(TimerRequest{Message: "Rotate the logs.", Every: "10m"})
	r.at(10 * time.Minute)
	fireID := TimerFireID(id, r.st.UserTimers[id].NextDueAt)
	r.fire(id)
	if b := TimerFire(r.st, r.env, id, fireID); b != nil {
		t.Errorf("repeated fire decided %v, want nothing", eventTypes(b))
	}
	r.crash()
	if b := TimerFire(r.st, r.env, id, fireID); b != nil {
		t.Errorf("fire repeated after a crash decided %v, want nothing", eventTypes(b))
	}
	r.at(20 * time.Minute)
	next := TimerFireID(id, r.st.UserTimers[id].NextDueAt)
	c, err := CancelTimer(r.st, id, "agent", "")
	if err != nil {
		t.Fatal(err)
	}
	r.commit(Batch{c})
	if b := TimerFire(r.st, r.env, id, next); b != nil {
		t.Errorf("fire of a cancelled timer decided %v, want nothing", eventTypes(b))
	}
	if _, err := CancelTimer(r.st, id, "agent", ""); !errors.Is(err, ErrTimerNotFound) {
		t.Errorf("second cancel: %v, want ErrTimerNotFound", err)
	}
}

// TestTimerEnds: a count ends the timer after that many delivered fires, a
// one-shot after its fire; a run-now leaves the schedule alone; a paused
// timer does not fire and resumes at its next run after now.
func TestTimerEnds(t *testing.T) {
	r := newTimerRig(t)
	id := r.create(TimerRequest{Message: "Twice.", Every: "1h", Count: 2})
	once := r.create(TimerRequest{Message: "Once.", After: "90m"})
	due := r.st.UserTimers[id].NextDueAt
	b, err := RunTimerNow(r.st, r.env, id)
	if err != nil {
		t.Fatal(err)
	}
	r.commit(b)
	if ut := r.st.UserTimers[id]; !ut.NextDueAt.Equal(due) || ut.Fires != 0 {
		t.Errorf("run-now moved the timer to %v (fires %d)", ut.NextDueAt, ut.Fires)
	}
	r.handled(id)
	r.at(time.Hour)
	r.fire(id)
	r.handled(id)
	r.at(90 * time.Minute)
	r.fire(once)
	if _, ok := r.st.UserTimers[once]; ok {
		t.Error("the one-shot is still there after its fire")
	}
	p, _ := PauseTimer(r.st, id)
	r.commit(p)
	if armed := ArmedUserTimers(r.st); len(armed) != 0 {
		t.Errorf("armed %v while paused", armed)
	}
	if b := TimerFire(r.st, r.env, id, TimerFireID(id, r.st.UserTimers[id].NextDueAt)); b != nil {
		t.Errorf("paused timer fired: %v", eventTypes(b))
	}
	r.at(5*time.Hour + time.Minute)
	res, _ := ResumeTimer(r.st, r.env, id)
	r.commit(res)
	if due := r.st.UserTimers[id].NextDueAt; !due.Equal(testNow.Add(6 * time.Hour)) {
		t.Errorf("resumed to %v, want the next run after now", due)
	}
	r.at(6 * time.Hour)
	r.fire(id)
	if _, ok := r.st.UserTimers[id]; ok {
		t.Error("the timer is still there after its count of fires")
	}
}

// TestCreateTimerRefusals: each bad request is refused with what was wrong
// and changes nothing.
func TestCreateTimerRefusals(t *testing.T) {
	full := &State{ID: "a1", UserTimers: map[string]*UserTimer{}}
	for i := range DefaultMaxTimers {
		full.UserTimers[string(rune('a'+i))] = &UserTimer{}
	}
	tests := []struct {
		name string
		st   *State
		req  TimerRequest
		want error
		says string
	}{
		{"bad cron", nil, TimerRequest{Message: "m", Cron: "61 * * * *", Zone: "UTC"}, ErrTimerInvalid, "five fields"},
		{"cron without zone", nil, TimerRequest{Message: "m", Cron: "0 9 * * *"}, ErrTimerInvalid, "IANA"},
		{"unknown zone", nil, TimerRequest{Message: "m", Cron: "0 9 * * *", Zone: "Mars/Olympus"}, ErrTimerInvalid, "IANA"},
		{"zone in the expression", nil, TimerRequest{Message: "m", Cron: "TZ=UTC 0 9 * * *", Zone: "UTC"}, ErrTimerInvalid, "in zone"},
		{"past at", nil, TimerRequest{Message: "m", At: "2020-01-01T00:00:00Z"}, ErrTimerInvalid, "in the past"},
		{"bad at", nil, TimerRequest{Message: "m", At: "tomorrow"}, ErrTimerInvalid, "RFC 3339"},
		{"bad after", nil, TimerRequest{Message: "m", After: "-5m"}, ErrTimerInvalid, "positive duration"},
		{"two schedules", nil, TimerRequest{Message: "m", After: "5m", Every: "1h"}, ErrTimerInvalid, "exactly one"},
		{"no schedule", nil, TimerRequest{Message: "m"}, ErrTimerInvalid, "exactly one"},
		{"no message", nil, TimerRequest{After: "5m"}, ErrTimerInvalid, "message"},
		{"interject", nil, TimerRequest{Message: "m", After: "5m", Priority: "interject"}, ErrTimerInvalid, "operator's"},
		{"bad policy", nil, TimerRequest{Message: "m", Every: "1h", Missed: "sometimes"}, ErrTimerInvalid, "run_once"},
		{"too frequent every", nil, TimerRequest{Message: "m", Every: "10s"}, ErrTimerTooFrequent, "minimum interval"},
		{"too frequent cron", &State{ID: "a1"}, TimerRequest{Message: "m", Cron: "* * * * *", Zone: "UTC"}, nil, ""},
		{"until before the first fire", nil, TimerRequest{Message: "m", Every: "1h", Until: testNow.Add(time.Minute).Format(time.RFC3339)}, ErrTimerInvalid, "never fire"},
		{"the host's zone", nil, TimerRequest{Message: "m", Cron: "0 9 * * *", Zone: "Local"}, ErrTimerInvalid, "host's zone"},
		{"a path for a zone", nil, TimerRequest{Message: "m", Cron: "0 9 * * *", Zone: "../../etc/passwd"}, ErrTimerInvalid, "IANA"},
		{"every below a millisecond", nil, TimerRequest{Message: "m", Every: "500us"}, ErrTimerInvalid, "shorter than a millisecond"},
		{"cron on a date that does not exist", nil, TimerRequest{Message: "m", Cron: "0 0 30 2 *", Zone: "UTC"}, ErrTimerInvalid, "never fires"},
		{"cron with seconds", nil, TimerRequest{Message: "m", Cron: "0 0 9 * * *", Zone: "UTC"}, ErrTimerInvalid, "five fields"},
		{"@reboot", nil, TimerRequest{Message: "m", Cron: "@reboot", Zone: "UTC"}, ErrTimerInvalid, "five fields"},
		{"too many", full, TimerRequest{Message: "m", After: "5m"}, ErrTooManyTimers, "limit is 20"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			st := tc.st
			if st == nil {
				st = &State{ID: "a1"}
			}
			_, err := CreateTimer(st, testEnv(), "agent", tc.req)
			if !errors.Is(err, tc.want) || (err != nil && !strings.Contains(err.Error(), tc.says)) {
				t.Errorf("CreateTimer = %v, want %v saying %q", err, tc.want, tc.says)
			}
		})
	}
	env := testEnv()
	env.Cfg.Timers.MinInterval = 5 * time.Minute
	if _, err := CreateTimer(&State{ID: "a1"}, env, "agent", TimerRequest{Message: "m", Cron: "*/2 * * * *", Zone: "UTC"}); !errors.Is(err, ErrTimerTooFrequent) {
		t.Errorf("cron every 2 minutes under a 5 minute minimum: %v, want ErrTimerTooFrequent", err)
	}
}

// TestWatchdogSeesCreatedTimers: an agent waiting on a timer is not
// stalled while one of its created timers is armed, and is once it is
// paused (nothing will fire).
func TestWatchdogSeesCreatedTimers(t *testing.T) {
	r := newTimerRig(t)
	r.st.LastClosure = &messages.Closure{Outcome: messages.OutcomeWaiting, WaitingReason: messages.AwaitingTimer}
	if w := r.st.ImpossibleWait(); w == "" {
		t.Fatal("no timer at all: want an impossible wait")
	}
	id := r.create(TimerRequest{Message: "Wake up.", After: "1h"})
	if w := r.st.ImpossibleWait(); w != "" {
		t.Errorf("with a created timer armed: impossible wait %q, want none", w)
	}
	p, _ := PauseTimer(r.st, id)
	r.commit(p)
	if w := r.st.ImpossibleWait(); w == "" {
		t.Error("with the timer paused: want an impossible wait")
	}
}

// TestTimerHeldOverBudget: while the agent's token budget (or an
// ancestor's) is spent, fires deliver nothing; once it is raised, the next
// fire delivers and reports them.
func TestTimerHeldOverBudget(t *testing.T) {
	r := newTimerRig(t)
	id := r.create(TimerRequest{Message: "Poll.", Every: "1m"})
	r.commit(Batch{messages.TokenBudgetSet{LimitTokens: 100}})
	r.commit(Batch{messages.ChildUsageRecorded{ChildAgentID: "c", TokensAdded: 150, ChildTotalTokens: 150}})
	for i := 1; i <= 3; i++ {
		r.at(time.Duration(i) * time.Minute)
		if _, f := r.fire(id); f.Delivered != 0 {
			t.Fatalf("fire %d over budget delivered %d, want 0", i, f.Delivered)
		}
	}
	r.commit(Batch{messages.TokenBudgetSet{LimitTokens: 1000}})
	r.env.Ancestor = &Ancestor{ID: "parent", Summary: "spent"}
	r.at(4 * time.Minute)
	if _, f := r.fire(id); f.Delivered != 0 {
		t.Fatalf("fire with an ancestor over budget delivered %d, want 0", f.Delivered)
	}
	r.env.Ancestor = nil
	r.at(5 * time.Minute)
	b, f := r.fire(id)
	if f.Delivered != 1 || !strings.Contains(ticks(b)[0].Body.Text, "4 earlier run(s) not delivered") {
		t.Fatalf("fire after the budget was raised delivered %d: %v, want one reporting the 4 held back", f.Delivered, ticks(b))
	}
}
