package tui

import (
	"context"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/holon-actors/holon-actors/actors/agentstate"
	"github.com/holon-actors/holon-actors/control"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/testkit"
)

// loadedModel is a console on agent main holding evs, as after its first
// page, with no stream (the update logic alone).
func loadedModel(t *testing.T, c Control, evs []control.StreamEvent) *Model {
	t.Helper()
	m := New(context.Background(), c, Options{Agent: "main"})
	t.Cleanup(m.Close)
	m.loaded, m.online = true, true
	m.add(evs)
	return m
}

// toolTurn runs a turn calling echo once on a harness runtime and returns
// its events as the console receives them.
func toolTurn(t testing.TB) (*fixture, []control.StreamEvent) {
	t.Helper()
	f := newFixture(t, testkit.Reply("Checking.", testkit.Call("c1", "echo", `{"text":"nightly"}`)), testkit.Reply("All green."))
	f.h.Prompt("main", "check the build")
	f.h.WaitEvent("main", testkit.OfType(messages.EventBriefRecorded))
	page, err := f.c.LastEvents(context.Background(), "main", 1000)
	if err != nil {
		t.Fatal(err)
	}
	return f, page.Events
}

// TestDisplayModes: info shows the operator's message and the brief;
// verbose adds the assistant's progress and the tool row; debug adds the
// tool's arguments and the turn's end. State changes show in none.
func TestDisplayModes(t *testing.T) {
	f, evs := toolTurn(t)
	tests := []struct {
		cmd      string
		want     []string
		wantNone []string
	}{
		{"/display info", []string{"you › check the build", "main › All green."},
			[]string{"Assistant progress", "▸", "Turn ended", "→"}},
		{"/display 4", []string{"you › check the build", "Assistant progress: Checking.", "▸ echo", "main › All green."},
			[]string{"Running echo", "turn 1", "→"}},
		{"/display debug", []string{"Running echo", "nightly", "turn 1", "main › All green."}, []string{"→"}},
	}
	m := loadedModel(t, f.c, evs)
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 40})
	for _, tt := range tests {
		t.Run(tt.cmd, func(t *testing.T) {
			m.composer.SetValue(tt.cmd)
			m.Update(tea.KeyMsg{Type: tea.KeyEnter})
			v := m.View()
			for _, w := range tt.want {
				if !strings.Contains(v, w) {
					t.Errorf("%s: screen lacks %q:\n%s", tt.cmd, w, v)
				}
			}
			for _, w := range tt.wantNone {
				if strings.Contains(v, w) {
					t.Errorf("%s: screen shows %q:\n%s", tt.cmd, w, v)
				}
			}
		})
	}
}

// TestBadInputChangesNothing: a bad command says what is valid, keeps
// its text in the composer to be fixed, and changes no setting.
func TestBadInputChangesNothing(t *testing.T) {
	f := newFixture(t)
	tests := []struct {
		text, want string
	}{
		{"/display 7", "info (3), verbose (4) or debug (5)"},
		{"/display trace", "use /events"},
		{"/priority urgent", "normal, next, interject or background"},
		{"/bogus", "unknown command /bogus: /help lists the commands"},
		{"/agent nobody", `no agent "nobody"`},
		{"/model", "/model needs a model"},
		{"/answer", "/answer needs the answer"},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			m := loadedModel(t, f.c, nil)
			m.agents = []agentEntry{{info: agentInfo("main")}}
			m.composer.SetValue(tt.text)
			_, cmd := m.Update(tea.KeyMsg{Type: tea.KeyEnter})
			if cmd != nil {
				t.Errorf("%s returned a command, want nothing done", tt.text)
			}
			if !strings.Contains(m.notice, tt.want) {
				t.Errorf("notice = %q, want it to say %q", m.notice, tt.want)
			}
			if m.composer.Value() != tt.text {
				t.Errorf("composer = %q, want %q kept", m.composer.Value(), tt.text)
			}
			if m.display != DisplayInfo || m.priority != messages.PriorityNormal || m.Agent() != "main" {
				t.Errorf("settings changed: display %v, priority %v, agent %v", m.display, m.priority, m.Agent())
			}
		})
	}
}

// TestPriorityKeys: Ctrl+P cycles the band of the next prompt, and the
// header says which.
func TestPriorityKeys(t *testing.T) {
	f := newFixture(t)
	m := loadedModel(t, f.c, nil)
	for _, want := range []messages.Priority{messages.PriorityNext, messages.PriorityInterject, messages.PriorityBackground, messages.PriorityNormal} {
		m.Update(tea.KeyMsg{Type: tea.KeyCtrlP})
		if m.priority != want || !strings.Contains(m.View(), "priority "+string(want)) {
			t.Fatalf("after Ctrl+P priority = %s, want %s", m.priority, want)
		}
	}
}

// TestResize: the console fills the terminal, no line wider than it, at
// 80×24 and after resizes; the conversation rewraps.
func TestResize(t *testing.T) {
	f, evs := toolTurn(t)
	m := loadedModel(t, f.c, evs)
	for _, size := range [][2]int{{80, 24}, {120, 40}, {40, 12}, {80, 24}} {
		m.Update(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
		lines := strings.Split(m.View(), "\n")
		if len(lines) != size[1] {
			t.Errorf("%dx%d: %d lines", size[0], size[1], len(lines))
		}
		for i, l := range lines {
			if w := ansi.StringWidth(l); w > size[0] {
				t.Errorf("%dx%d: line %d is %d wide: %q", size[0], size[1], i, w, l)
			}
		}
	}
}

// TestNewOperatorMessageClearsActivity: the working line belongs to the
// current turn: a new operator message starts it empty.
func TestNewOperatorMessageClearsActivity(t *testing.T) {
	f, evs := toolTurn(t)
	var upToTool []control.StreamEvent
	for _, ev := range evs {
		upToTool = append(upToTool, ev)
		if ev.Provenance.Kind == messages.EventToolExecuted {
			break
		}
	}
	m := loadedModel(t, f.c, upToTool)
	if !strings.Contains(m.View(), "working: echo") {
		t.Fatalf("no working line after the tool ran:\n%s", m.View())
	}
	for _, ev := range evs[len(upToTool):] {
		if ev.Provenance.Kind == messages.EventMessageAdmitted {
			t.Fatal("test needs a second message")
		}
	}
	admitted := evs[0]
	for _, ev := range evs {
		if ev.Provenance.Kind == messages.EventMessageAdmitted {
			admitted = ev
		}
	}
	admitted.Provenance.EventSeq = m.lastSeq + 1
	m.add([]control.StreamEvent{admitted})
	if strings.Contains(m.View(), "working:") {
		t.Errorf("the new message kept the last turn's activity:\n%s", m.View())
	}
}

func agentInfo(id string) agentstate.AgentInfo { return agentstate.AgentInfo{ID: id} }

// TestOneRefreshInFlight: status reads asked for while one is in flight
// fold into one more read after it, however many events asked.
func TestOneRefreshInFlight(t *testing.T) {
	f := newFixture(t)
	m := loadedModel(t, f.c, nil)
	first := m.refresh()
	if first == nil {
		t.Fatal("the first refresh read nothing")
	}
	for range 5 {
		if cmd := m.refresh(); cmd != nil {
			t.Fatal("a refresh started while one is in flight")
		}
	}
	_, again := m.Update(first())
	if again == nil {
		t.Fatal("the refreshes asked meanwhile were dropped, want one more read")
	}
	_, cmd := m.Update(again())
	if cmd != nil || m.summary == nil || m.summary.ID != "main" {
		t.Errorf("after the second read: another command %v, summary %+v; want none and main's", cmd != nil, m.summary)
	}
}

// TestAgentsOverlayFillsIn: the agents overlay opened before the agent
// list is known reads it and fills in when the runtime answers.
func TestAgentsOverlayFillsIn(t *testing.T) {
	f := newFixture(t)
	if _, err := f.c.CreateAgent(context.Background(), "ops"); err != nil {
		t.Fatal(err)
	}
	m := loadedModel(t, f.c, nil)
	m.composer.SetValue("/agents")
	_, cmd := m.Update(tea.KeyMsg{Type: tea.KeyEnter})
	if m.overlay == nil || len(m.overlay.items) != 0 || cmd == nil {
		t.Fatalf("overlay %+v, command %v: want an empty agents overlay and a read of the list", m.overlay, cmd != nil)
	}
	m.Update(cmd())
	if v := m.View(); len(m.overlay.items) != 2 || !strings.Contains(v, "ops") || !strings.Contains(v, "› main") {
		t.Errorf("after the list came: %d items, screen:\n%s", len(m.overlay.items), v)
	}
}

// TestOneRuntimeReadInFlight: the runtime status and agent list, which
// ask every agent, are read once at a time however often the ticks come.
func TestOneRuntimeReadInFlight(t *testing.T) {
	f := newFixture(t)
	m := loadedModel(t, f.c, nil)
	first := m.refreshRuntime()
	if first == nil {
		t.Fatal("the first read started nothing")
	}
	if m.refreshRuntime() != nil {
		t.Fatal("a second read started while one is in flight")
	}
	m.Update(first())
	if len(m.agents) != 1 || m.refreshRuntime() == nil {
		t.Errorf("after the answer: agents %v, and no new read could start", m.agents)
	}
}

// TestOverlays: each overlay shows what the runtime holds for the agent.
func TestOverlays(t *testing.T) {
	f, evs := toolTurn(t)
	if _, err := f.c.EnqueueWorkItem(context.Background(), "main", "ship the nightly fix"); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		cmd  string
		want []string
	}{
		{"/transcript", []string{"check the build", "All green."}},
		{"/tasks", []string{"status ", "running task(s)", "queued"}},
		{"/children", []string{"(none)"}},
		{"/work", []string{"ship the nightly fix"}},
		{"/events", []string{"message_admitted", "tool_executed", "brief_recorded"}},
		{"/actions", []string{"pause", "resume", "stop", "wake", "interrupt", "model"}},
		{"/help", []string{"/display MODE", "Ctrl+Q, /questions"}},
	}
	for _, tt := range tests {
		t.Run(tt.cmd, func(t *testing.T) {
			m := loadedModel(t, f.c, evs)
			m.Update(tea.WindowSizeMsg{Width: 100, Height: 40})
			m.composer.SetValue(tt.cmd)
			_, cmd := m.Update(tea.KeyMsg{Type: tea.KeyEnter})
			if m.overlay == nil {
				t.Fatalf("%s opened no overlay (notice %q)", tt.cmd, m.notice)
			}
			if cmd != nil && m.overlay.loading {
				m.Update(cmd())
			}
			v := m.View()
			for _, w := range tt.want {
				if !strings.Contains(v, w) {
					t.Errorf("%s: overlay lacks %q:\n%s", tt.cmd, w, v)
				}
			}
			m.Update(tea.KeyMsg{Type: tea.KeyEsc})
			if m.overlay != nil {
				t.Errorf("Esc left the %s overlay open", tt.cmd)
			}
		})
	}
}

// TestEventDetail: Enter on a raw event shows its provenance and payload.
func TestEventDetail(t *testing.T) {
	f, evs := toolTurn(t)
	m := loadedModel(t, f.c, evs)
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 60})
	m.Update(tea.KeyMsg{Type: tea.KeyCtrlE})
	m.Update(tea.KeyMsg{Type: tea.KeyHome})
	m.Update(tea.KeyMsg{Type: tea.KeyEnter})
	v := m.View()
	for _, w := range []string{"Event 1 ", `"event_seq": 1`, "payload"} {
		if !strings.Contains(v, w) {
			t.Errorf("event detail lacks %q:\n%s", w, v)
		}
	}
}
