package main

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/holon-actors/holon-actors/control"
	"github.com/holon-actors/holon-actors/messages"
)

// timerJournal reads agent main's timer_fired events and its timer_tick
// messages from a running runtime.
func timerJournal(t *testing.T, home string) ([]messages.TimerFired, []messages.MessageEnvelope) {
	t.Helper()
	c := control.NewUnixClient(filepath.Join(home, "run", "control.sock"))
	defer c.Close()
	var fired []messages.TimerFired
	var ticks []messages.MessageEnvelope
	for after := uint64(0); ; {
		page, err := c.Events(context.Background(), "main", after, 500)
		if err != nil {
			t.Fatal(err)
		}
		for _, ev := range page.Events {
			switch ev.Provenance.Kind {
			case messages.EventTimerFired:
				var f messages.TimerFired
				if err := json.Unmarshal(ev.Payload, &f); err != nil {
					t.Fatal(err)
				}
				fired = append(fired, f)
			case messages.EventMessageAdmitted:
				var m messages.MessageAdmitted
				if err := json.Unmarshal(ev.Payload, &m); err != nil {
					t.Fatal(err)
				}
				if m.Envelope.Kind == messages.KindTimerTick {
					ticks = append(ticks, m.Envelope)
				}
			}
		}
		if len(page.Events) == 0 || page.NextAfter >= page.HighestSeq {
			return fired, ticks
		}
		after = page.NextAfter
	}
}

// TestTimerFiresOnceUnderKill9: a timer firing every second survives five
// SIGKILLs of the real binary at arbitrary points; in the journal every
// fire has its own id and due time, later than the one before, and every
// delivered timer_tick names a fire of its own: none ran twice.
func TestTimerFiresOnceUnderKill9(t *testing.T) {
	t.Parallel()
	home := filepath.Join(t.TempDir(), "home")
	script := writeScript(t, `{"steps": [], "then": "echo"}`)
	args := []string{"--model", "scripted", "--script", script, "--timer-min-interval", "1s"}
	d := startRun(t, home, args...)
	code, out, errOut := client(t, home, "timers", "create", "--every", "1s", "--missed", "run_all", "Count", "the", "ticks.")
	if code != 0 || !strings.Contains(out, "created tmr_") {
		t.Fatalf("timers create = %d %q %q", code, out, errOut)
	}
	for round := range 5 {
		before, _ := timerJournal(t, home)
		for deadline := time.Now().Add(e2eWait); ; {
			if now, _ := timerJournal(t, home); len(now) > len(before) {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("round %d: no fire in %s:\n%s", round, e2eWait, d.output())
			}
			time.Sleep(50 * time.Millisecond) // polling another process
		}
		d.kill()
		d = startRun(t, home, args...)
	}
	fired, ticks := timerJournal(t, home)
	d.stop()

	fireIDs, delivered := map[string]bool{}, 0
	var lastDue time.Time
	for _, f := range fired {
		if fireIDs[f.FireID] {
			t.Errorf("fire %s recorded twice", f.FireID)
		}
		fireIDs[f.FireID] = true
		if f.DueAt == nil || !f.DueAt.After(lastDue) {
			t.Errorf("fire %s due %v, not after the previous one (%v)", f.FireID, f.DueAt, lastDue)
		} else {
			lastDue = *f.DueAt
		}
		delivered += f.Delivered
	}
	tickFires := map[string]bool{}
	for _, m := range ticks {
		id := m.SourceRefs["fire_id"]
		if tickFires[id] {
			t.Errorf("fire %s delivered twice", id)
		}
		tickFires[id] = true
		if m.AuthorityClass != messages.AuthorityRuntimeInstruction {
			t.Errorf("timer_tick %s has authority %s, want runtime_instruction", m.ID, m.AuthorityClass)
		}
	}
	if len(fired) < 5 || delivered != len(ticks) {
		t.Fatalf("%d fires delivering %d, %d timer_tick messages; want at least 5 fires, each delivery one message", len(fired), delivered, len(ticks))
	}
}

// TestTimersCLI: the operator's timers commands, their refusals (which
// change nothing) and status's next fires.
func TestTimersCLI(t *testing.T) {
	t.Parallel()
	home := filepath.Join(t.TempDir(), "home")
	script := writeScript(t, `{"steps": [], "then": "echo"}`)
	d := startRun(t, home, "--model", "scripted", "--script", script, "--timer-max-per-agent", "1")
	refusals := []struct {
		args []string
		says string
	}{
		{[]string{"--every", "10s", "x"}, "minimum interval"},
		{[]string{"--at", "2001-01-01T00:00:00Z", "x"}, "in the past"},
		{[]string{"--cron", "0 25 * * *", "--zone", "Europe/Paris", "x"}, "five fields"},
		{[]string{"--cron", "0 9 * * *", "x"}, "IANA"},
		{[]string{"--cron", "0 9 * * *", "--zone", "Local", "x"}, "host's zone"},
	}
	for _, r := range refusals {
		code, _, errOut := client(t, home, append([]string{"timers", "create"}, r.args...)...)
		if code != exitFailure || !strings.Contains(errOut, r.says) {
			t.Errorf("timers create %v = %d %q, want exit 1 saying %q", r.args, code, errOut, r.says)
		}
	}
	code, out, errOut := client(t, home, "timers", "create", "--cron", "0 9 * * *", "--zone", "Europe/Paris", "Post the daily report.")
	if code != 0 {
		t.Fatalf("timers create = %d %q %q", code, out, errOut)
	}
	id := strings.Fields(strings.TrimPrefix(out, "created "))[0]
	if code, _, errOut := client(t, home, "timers", "create", "--after", "1h", "y"); code != exitFailure || !strings.Contains(errOut, "limit is 1") {
		t.Errorf("second timer over the limit = %d %q, want exit 1 naming the limit", code, errOut)
	}
	if _, out, _ := client(t, home, "status"); !strings.Contains(out, "next timer fires") || !strings.Contains(out, id) {
		t.Errorf("status does not show the next fire:\n%s", out)
	}
	for _, action := range []string{"pause", "resume", "run-now"} {
		if code, out, errOut := client(t, home, "timers", action, id); code != 0 || !strings.Contains(out, id) {
			t.Errorf("timers %s = %d %q %q", action, code, out, errOut)
		}
	}
	if code, _, errOut := client(t, home, "timers", "cancel", "tmr_nope"); code != exitFailure || !strings.Contains(errOut, "timers list") {
		t.Errorf("cancel of an unknown timer = %d %q, want exit 1 with a hint", code, errOut)
	} else if n := strings.Count(errOut, "timers list"); n != 1 {
		t.Errorf("cancel of an unknown timer says its hint %d times: %q", n, errOut)
	}
	if code, out, _ := client(t, home, "timers", "list"); code != 0 || !strings.Contains(out, `cron "0 9 * * *" Europe/Paris`) {
		t.Errorf("timers list = %d %q", code, out)
	}
	if code, out, _ := client(t, home, "timers", "cancel", id); code != 0 || !strings.Contains(out, "no timers") {
		t.Errorf("timers cancel = %d %q", code, out)
	}
	d.stop()
}

// TestRunRefusesBadTimerLimits: run refuses timer limits it cannot use,
// saying which flag, before it starts anything.
func TestRunRefusesBadTimerLimits(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{{"--timer-max-per-agent", "0"}, {"--timer-min-interval", "10ms"}} {
		home := filepath.Join(t.TempDir(), "home")
		code, _, errOut := client(t, home, append([]string{"run"}, args...)...)
		if code != exitUsage || !strings.Contains(errOut, args[0]) {
			t.Errorf("run %v = %d %q, want exit %d naming the flag", args, code, errOut, exitUsage)
		}
	}
}
