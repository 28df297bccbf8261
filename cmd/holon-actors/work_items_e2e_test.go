package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/holon-actors/holon-actors/control"
	"github.com/holon-actors/holon-actors/messages"
)

// TestWorkItemsAddAndList: work-items add enqueues through the control
// plane; list shows the item, --json the whole view; an empty objective
// is refused with the API's hint.
func TestWorkItemsAddAndList(t *testing.T) {
	t.Parallel()
	home := filepath.Join(t.TempDir(), "home")
	script := writeScript(t, `{"steps": [{"text": "Noted."}], "then": "echo"}`)
	startRun(t, home, "--model", "scripted", "--script", script)

	code, out, errOut := client(t, home, "work-items", "add", "main", "Triage", "the", "open", "issues")
	if code != 0 || !strings.Contains(out, "queued wi_") || !strings.Contains(out, "Triage the open issues") {
		t.Fatalf("work-items add = %d %q %q", code, out, errOut)
	}
	code, out, errOut = client(t, home, "--json", "work-items", "list", "main")
	var list control.WorkItemList
	if code != 0 || json.Unmarshal([]byte(out), &list) != nil || len(list.WorkItems) != 1 ||
		list.WorkItems[0].Objective != "Triage the open issues" || list.WorkItems[0].State != messages.WorkItemStateOpen {
		t.Fatalf("work-items list --json = %d %q %q", code, out, errOut)
	}
	code, out, _ = client(t, home, "work-items", "list", "main")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if code != 0 || len(lines) != 2 || !strings.Contains(lines[1], list.WorkItems[0].ID) || !strings.Contains(lines[1], "runnable") {
		t.Fatalf("work-items list = %d %q", code, out)
	}
	code, _, errOut = client(t, home, "work-items", "add", "main", " ")
	if code != exitFailure || !strings.Contains(errOut, "objective is empty") {
		t.Fatalf("work-items add with an empty objective = %d %q", code, errOut)
	}
}

// TestOnceFinalTextPrefersDeliverySummary: final_text is the newest
// delivery summary of the run, raw_final_text the terminal assistant
// message.
func TestOnceFinalTextPrefersDeliverySummary(t *testing.T) {
	t.Parallel()
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	rec := messages.WorkItemRecord{ID: "wi_1", AgentID: "a", Objective: "o", State: messages.WorkItemStateCompleted,
		PlanStatus: messages.PlanReady, TodoList: []messages.TodoItem{}, ResultSummary: "Report: all green.", CreatedAt: at, UpdatedAt: at}
	var r onceResult
	for _, p := range []messages.Payload{
		messages.WorkItemCompleted{Record: rec, DeliverySummary: &messages.DeliverySummaryRecord{WorkItemID: "wi_1", Text: "Report: all green.", TurnID: "t", CreatedAt: at}},
		messages.BriefRecorded{Brief: messages.Brief{ID: "b1", AgentID: "a", Kind: messages.BriefResult, WorkItemID: "wi_1", Text: "Report: all green.", CreatedAt: at}},
		messages.TurnTerminal{TurnID: "t", MessageID: "m", TurnIndex: 1, Kind: messages.TerminalCompleted, LastAssistantMessage: "Bye.",
			Closure: messages.Closure{Outcome: messages.OutcomeCompleted}},
		messages.BriefRecorded{Brief: messages.Brief{ID: "b2", AgentID: "a", Kind: messages.BriefResult, Text: "Bye.", CreatedAt: at}},
	} {
		ev, err := messages.NewEvent("a", at, p)
		if err != nil {
			t.Fatal(err)
		}
		r.apply(ev, 8)
	}
	if r.FinalText != "Report: all green." || r.RawFinalText != "Bye." {
		t.Fatalf("final_text %q, raw_final_text %q", r.FinalText, r.RawFinalText)
	}
}
