package tui

import (
	"context"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/holon-actors/holon-actors/actors"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/testkit"
)

// TestConsolePromptShowsBrief: a prompt typed in the composer and sent
// with Enter reaches the agent, and its brief comes back live in the
// conversation; the screen at 80×24 is the golden one. Leaving the
// console writes nothing to the journal.
func TestConsolePromptShowsBrief(t *testing.T) {
	f := newFixture(t, testkit.Reply("Hello from the script."))
	sc, _ := f.console(t, Options{})
	mark := sc.wait(t, 0, "holon-actors · main", "awake_idle")

	sc.typeLine("hi there")
	mark = sc.wait(t, mark, "you › hi there", "main › Hello from the script.")
	sc.wait(t, mark, "awake_idle │ model default │ budget 110 tok") // the status after the turn
	high := len(f.h.Events("main"))

	m, screen := sc.final(t)
	checkScreen(t, f, "prompt", screen)
	if n := strings.Count(screen, "\n") + 1; n != 24 {
		t.Errorf("the screen has %d lines, want 24", n)
	}
	if m.composer.Value() != "" {
		t.Errorf("composer = %q after the prompt was sent, want empty", m.composer.Value())
	}
	if got := len(f.h.Events("main")); got != high {
		t.Errorf("leaving the console wrote %d events, want none", got-high)
	}
}

// TestConsoleAnswersQuestion: an open question shows in the questions
// overlay; Enter on it lists its choices, Enter on one answers it, and
// the agent resumes.
func TestConsoleAnswersQuestion(t *testing.T) {
	f := newFixture(t, testkit.Reply("", testkit.Call("call_ask", "RequestOperatorInput",
		`{"question": "Refund order #12345?", "response_type": "choice", "timeout_seconds": 3600,
		  "choices": [{"value": "approve", "label": "Approve refund"}, {"value": "deny", "label": "Deny refund"}]}`)),
		testkit.Reply("Refund denied."))
	sc, _ := f.console(t, Options{})
	mark := sc.wait(t, 0, "awake_idle")
	sc.typeLine("handle the refund")
	mark = sc.wait(t, mark, "Refund order #12345?", "question(s)")

	sc.tm.Send(tea.KeyMsg{Type: tea.KeyCtrlQ})
	mark = sc.wait(t, mark, "Open questions", "main         Refund order #12345?")
	sc.key(tea.KeyEnter)
	mark = sc.wait(t, mark, "approve      Approve refund", "deny         Deny refund")
	sc.key(tea.KeyDown)
	sc.key(tea.KeyEnter)
	sc.wait(t, mark, "with deny: responded", `you › answered "Refund order #12345?": deny`, "main › Refund denied.")

	open, err := f.c.Suspensions(context.Background(), "main", true)
	if err != nil || len(open) != 0 {
		t.Fatalf("open questions after the answer = %v, %v; want none", open, err)
	}
}

// TestConsoleSwitchesAgent: the agents overlay lists the public agents;
// Enter on one shows its conversation and sends the composer's prompts
// to it.
func TestConsoleSwitchesAgent(t *testing.T) {
	f := newFixture(t, testkit.Reply("ops here"))
	if _, err := f.c.CreateAgent(context.Background(), "ops"); err != nil {
		t.Fatal(err)
	}
	sc, _ := f.console(t, Options{StatusEvery: 20 * 1e6})
	mark := sc.wait(t, 0, "awake_idle")
	sc.tm.Send(tea.KeyMsg{Type: tea.KeyCtrlA})
	mark = sc.wait(t, mark, "── Agents", "ops")
	sc.key(tea.KeyDown) // main is first, selected
	sc.key(tea.KeyEnter)
	mark = sc.wait(t, mark, "holon-actors · ops")
	sc.typeLine("status?")
	sc.wait(t, mark, "ops › ops here")

	m, _ := sc.final(t)
	if m.Agent() != "ops" {
		t.Errorf("agent = %q, want ops", m.Agent())
	}
	if evs := f.h.Events("main"); hasPrompt(evs, "status?") {
		t.Errorf("the prompt reached main, want ops only")
	}
	if !hasPrompt(f.h.Events("ops"), "status?") {
		t.Errorf("the prompt did not reach ops")
	}
}

func hasPrompt(evs []messages.Event, text string) bool {
	for _, ev := range evs {
		p, err := ev.Decode()
		if a, ok := p.(messages.MessageAdmitted); err == nil && ok && a.Envelope.Body.Text == text {
			return true
		}
	}
	return false
}

// TestConsoleResumesAfterStreamBreak: when the control server goes away
// and comes back (a daemon restart), the console resumes its stream
// after the last event_seq it showed: new events appear, none twice.
func TestConsoleResumesAfterStreamBreak(t *testing.T) {
	f := newFixture(t, testkit.Reply("first answer"), testkit.Reply("second answer"))
	sc, _ := f.console(t, Options{})
	mark := sc.wait(t, 0, "awake_idle")
	sc.typeLine("one")
	mark = sc.wait(t, mark, "main › first answer")
	sc.settled(t, "awake_idle")

	f.close(t)
	mark = sc.wait(t, mark, "event stream broke")
	f.serve(t)
	f.h.Prompt("main", "two")
	sc.wait(t, mark, "main › second answer")

	m, screen := sc.final(t)
	if n := strings.Count(screen, "main › first answer"); n != 1 {
		t.Errorf("the first answer shows %d times, want once:\n%s", n, screen)
	}
	for i, ev := range m.events { // the whole journal so far: no gap, no duplicate
		if ev.Provenance.EventSeq != uint64(i+1) {
			t.Fatalf("event %d held is seq %d: a gap or a duplicate across the break", i, ev.Provenance.EventSeq)
		}
	}
}

// TestConsoleFirstPaintReadsNewestPage: the first paint reads only the
// newest Options.Page events, and the conversation shows the latest.
func TestConsoleFirstPaintReadsNewestPage(t *testing.T) {
	f := newFixture(t, testkit.Reply("answer one"), testkit.Reply("answer two"))
	f.h.Prompt("main", "one")
	f.h.WaitEvent("main", testkit.OfType(messages.EventBriefRecorded))
	f.h.Prompt("main", "two")
	f.h.WaitEvent("main", testkit.NthOfType(messages.EventBriefRecorded, 2))
	sc, _ := f.console(t, Options{Page: 4})
	sc.wait(t, 0, "main › answer two")

	m, screen := sc.final(t)
	if len(m.events) > 4+8 { // the page, and what the live stream added since
		t.Errorf("the console holds %d events, want the newest page of 4 (and live ones)", len(m.events))
	}
	if strings.Contains(screen, "answer one") {
		t.Errorf("the first answer is shown, want only the newest page:\n%s", screen)
	}
	if first := m.events[0].Provenance.EventSeq; first == 1 {
		t.Errorf("the first event held is seq 1: the whole journal was read")
	}
}

// TestConsoleLifecycleActions: /pause and /resume reach the agent, and
// the actions overlay does the same by Enter.
func TestConsoleLifecycleActions(t *testing.T) {
	f := newFixture(t)
	sc, _ := f.console(t, Options{})
	mark := sc.wait(t, 0, "awake_idle")
	sc.typeLine("/pause")
	mark = sc.wait(t, mark, "pause main: now paused")
	if in, err := f.c.Status(context.Background(), "main"); err != nil || in.Status != messages.StatusPaused {
		t.Fatalf("status after /pause = %v, %v", in.Status, err)
	}
	sc.tm.Send(tea.KeyMsg{Type: tea.KeyCtrlO})
	mark = sc.wait(t, mark, "── Actions")
	sc.key(tea.KeyDown) // resume
	sc.key(tea.KeyEnter)
	sc.wait(t, mark, "resume main: now")
	if in, err := f.c.Status(context.Background(), "main"); err != nil || in.Status == messages.StatusPaused {
		t.Fatalf("status after resume = %v, %v", in.Status, err)
	}
	_ = actors.OpResume
}

// TestConsoleScreens: the help overlay, and a tool turn in verbose, at
// 80×24 are the golden ones.
func TestConsoleScreens(t *testing.T) {
	t.Run("help", func(t *testing.T) {
		f := newFixture(t)
		sc, _ := f.console(t, Options{})
		mark := sc.wait(t, 0, "awake_idle │ model default │ budget 0 tok │ online")
		sc.key(tea.KeyF1)
		sc.wait(t, mark, "── Help")
		_, screen := sc.final(t)
		checkScreen(t, f, "help", screen)
	})
	t.Run("verbose", func(t *testing.T) {
		f := newFixture(t, testkit.Reply("Checking.", testkit.Call("c1", "echo", `{"text":"nightly"}`)), testkit.Reply("All green."))
		sc, _ := f.console(t, Options{Display: DisplayVerbose})
		mark := sc.wait(t, 0, "awake_idle")
		sc.typeLine("check the build")
		mark = sc.wait(t, mark, "main › All green.")
		sc.wait(t, mark, "awake_idle │ model default │ budget 220 tok") // the status after the turn
		_, screen := sc.final(t)
		checkScreen(t, f, "verbose", screen)
	})
}
