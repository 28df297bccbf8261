package runtimetools_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/holon-actors/holon-actors/actors/agentstate"
	"github.com/holon-actors/holon-actors/actors/runtimetools"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/tools"
)

var testNow = time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)

// testEnv is agent a1's Env at testNow, its IDs counting up per prefix.
func testEnv() agentstate.Env {
	n := map[string]int{}
	return agentstate.Env{AgentID: "a1", Now: testNow, NewID: func(prefix string) string {
		n[prefix]++
		return fmt.Sprintf("%s-%d", prefix, n[prefix])
	}}
}

// workState is agent a1 in a turn whose last round said text and made
// calls, with its open work items wi-a (current) and wi-b, wi-done
// (completed) and wi-x (another agent's).
func workState(text string, calls ...string) *agentstate.State {
	item := func(id, agent string, state messages.WorkItemState) *messages.WorkItemRecord {
		return &messages.WorkItemRecord{ID: id, AgentID: agent, Objective: "do " + id, State: state,
			PlanStatus: messages.PlanReady, TodoList: []messages.TodoItem{}, CreatedAt: testNow.Add(-time.Hour)}
	}
	st := &agentstate.State{ID: "a1", Status: messages.StatusAwakeRunning, WorkQueueState: agentstate.WorkQueueState{
		CurrentWorkItemID: "wi-a",
		WorkItems: map[string]*messages.WorkItemRecord{
			"wi-a":    item("wi-a", "a1", messages.WorkItemStateOpen),
			"wi-b":    item("wi-b", "a1", messages.WorkItemStateOpen),
			"wi-done": item("wi-done", "a1", messages.WorkItemStateCompleted),
			"wi-x":    item("wi-x", "a2", messages.WorkItemStateOpen),
		}},
		Turn: &agentstate.TurnState{ID: "t1", MessageID: "m1", Index: 2, LastText: text}}
	for i, name := range calls {
		st.Turn.Calls = append(st.Turn.Calls, messages.ToolCall{ID: fmt.Sprintf("c%d", i), Name: name})
	}
	return st
}

func types(b agentstate.Batch) []string {
	out := []string{}
	for _, p := range b {
		out = append(out, string(p.EventType()))
	}
	return out
}

// result is the decision's result, its plan I/O finished with art and
// seedErr when it has some.
func result(t *testing.T, d runtimetools.Decision, art *agentstate.PlanArtifact, seedErr error) (tools.Result, runtimetools.WorkItemResult) {
	t.Helper()
	res := d.Result
	if d.Plan != nil {
		res = d.Plan.Finish(art, seedErr)
	}
	var env struct {
		Result runtimetools.WorkItemResult `json:"result"`
		Error  tools.ToolError             `json:"error"`
	}
	if err := json.Unmarshal(res.Envelope, &env); err != nil {
		t.Fatalf("result envelope %s: %v", res.Envelope, err)
	}
	return res, env.Result
}

func call(name string, args any) messages.ToolCall {
	b, _ := json.Marshal(args)
	return messages.ToolCall{ID: "c0", Name: name, Arguments: b}
}

func TestWorkItemDecisions(t *testing.T) {
	plan := "1. look\n2. fix"
	blocker := "waiting for CI"
	after := int64(60_000)
	objective := "  a new objective  "
	art := &agentstate.PlanArtifact{Path: "/h/plan.md", Hash: "sha256:x"}
	cases := []struct {
		name    string
		st      *agentstate.State
		call    messages.ToolCall
		seedErr error
		status  messages.ToolStatus
		kind    string   // error or warning kind
		batch   []string // journaled on success
		seed    *string  // the plan to write first
		check   func(t *testing.T, b agentstate.Batch, out runtimetools.WorkItemResult)
	}{
		{name: "create", st: workState(""), call: call(agentstate.CreateWorkItemToolName, runtimetools.CreateWorkItemArgs{Objective: " ship it "}),
			status: messages.ToolOK, batch: []string{"work_item_created"},
			check: func(t *testing.T, b agentstate.Batch, out runtimetools.WorkItemResult) {
				rec := b[0].(messages.WorkItemCreated).Record
				if rec.ID != "wi-1" || rec.AgentID != "a1" || rec.Objective != "ship it" || rec.PlanStatus != messages.PlanDraft ||
					!rec.CreatedAt.Equal(testNow) || out.WorkItem.ID != "wi-1" || out.WorkItem.Current || out.WorkItem.PlanArtifact == nil || out.WorkItem.PlanArtifact.Hash != art.Hash {
					t.Errorf("created %+v, view %+v", rec, out.WorkItem)
				}
			}},
		{name: "create seeds its plan", st: workState(""), call: call(agentstate.CreateWorkItemToolName, runtimetools.CreateWorkItemArgs{Objective: "x", Plan: plan}),
			status: messages.ToolOK, batch: []string{"work_item_created"}, seed: &plan},
		{name: "create whose plan is not stored", st: workState(""), call: call(agentstate.CreateWorkItemToolName, runtimetools.CreateWorkItemArgs{Objective: "x", Plan: plan}),
			seedErr: errors.New("disk full"), status: messages.ToolOK, kind: runtimetools.KindPlanNotStored, batch: []string{"work_item_created"}, seed: &plan},
		{name: "pick", st: workState(""), call: call(agentstate.PickWorkItemToolName, runtimetools.PickWorkItemArgs{WorkItemID: "wi-b"}),
			status: messages.ToolOK, batch: []string{"work_item_picked"},
			check: func(t *testing.T, b agentstate.Batch, out runtimetools.WorkItemResult) {
				if p := b[0].(messages.WorkItemPicked); p.WorkItemID != "wi-b" || p.PreviousWorkItemID != "wi-a" || !out.WorkItem.Current {
					t.Errorf("picked %+v, view current %v", p, out.WorkItem.Current)
				}
			}},
		{name: "pick the current item", st: workState(""), call: call(agentstate.PickWorkItemToolName, runtimetools.PickWorkItemArgs{WorkItemID: " wi-a "}),
			status: messages.ToolOK, batch: []string{}},
		{name: "pick an unknown item", st: workState(""), call: call(agentstate.PickWorkItemToolName, runtimetools.PickWorkItemArgs{WorkItemID: "wi-z"}),
			status: messages.ToolError, kind: runtimetools.KindWorkItemNotFound},
		{name: "pick another agent's item", st: workState(""), call: call(agentstate.PickWorkItemToolName, runtimetools.PickWorkItemArgs{WorkItemID: "wi-x"}),
			status: messages.ToolError, kind: runtimetools.KindWorkItemNotFound},
		{name: "pick a completed item", st: workState(""), call: call(agentstate.PickWorkItemToolName, runtimetools.PickWorkItemArgs{WorkItemID: "wi-done"}),
			status: messages.ToolError, kind: runtimetools.KindWorkItemClosed},
		{name: "update with a blocker", st: workState(""),
			call:   call(agentstate.UpdateWorkItemToolName, runtimetools.UpdateWorkItemArgs{WorkItemID: "wi-b", Objective: &objective, BlockedBy: &blocker, RecheckAfter: &after}),
			status: messages.ToolOK, batch: []string{"work_item_updated", "timer_scheduled"},
			check: func(t *testing.T, b agentstate.Batch, out runtimetools.WorkItemResult) {
				u, timer := b[0].(messages.WorkItemUpdated), b[1].(messages.TimerScheduled)
				if u.TurnID != "t1" || u.Record.Objective != "a new objective" || u.Record.BlockedBy != blocker ||
					!timer.DueAt.Equal(testNow.Add(time.Minute)) || timer.WorkItemID != "wi-b" || out.WorkItem.Current {
					t.Errorf("updated %+v, timer %+v", u.Record, timer)
				}
			}},
		{name: "update a completed item", st: workState(""), call: call(agentstate.UpdateWorkItemToolName, runtimetools.UpdateWorkItemArgs{WorkItemID: "wi-done", BlockedBy: &blocker}),
			status: messages.ToolError, kind: runtimetools.KindWorkItemClosed},
		{name: "complete with its report", st: workState(" All done. ", agentstate.CompleteWorkItemToolName),
			call:   call(agentstate.CompleteWorkItemToolName, runtimetools.CompleteWorkItemArgs{WorkItemID: "wi-a"}),
			status: messages.ToolOK, batch: []string{"work_item_completed", "brief_recorded"},
			check: func(t *testing.T, b agentstate.Batch, out runtimetools.WorkItemResult) {
				done := b[0].(messages.WorkItemCompleted)
				if done.Record.State != messages.WorkItemStateCompleted || done.Record.ResultSummary != "All done." ||
					done.DeliverySummary == nil || done.DeliverySummary.TurnID != "t1" ||
					out.WorkItem.CompletionReport == nil || out.WorkItem.CompletionReport.Text != "All done." {
					t.Errorf("completed %+v, report %+v", done, out.WorkItem.CompletionReport)
				}
				if br := b[1].(messages.BriefRecorded).Brief; br.ID != "brief-1" || br.WorkItemID != "wi-a" || br.RelatedMessageID != "m1" {
					t.Errorf("brief %+v", br)
				}
			}},
		{name: "complete without text", st: workState("", agentstate.CompleteWorkItemToolName),
			call:   call(agentstate.CompleteWorkItemToolName, runtimetools.CompleteWorkItemArgs{WorkItemID: "wi-a"}),
			status: messages.ToolOK, kind: "missing_completion_report", batch: []string{"work_item_completed"}},
		{name: "complete two in one reply", st: workState("Done.", agentstate.CompleteWorkItemToolName, agentstate.CompleteWorkItemToolName),
			call:   call(agentstate.CompleteWorkItemToolName, runtimetools.CompleteWorkItemArgs{WorkItemID: "wi-b"}),
			status: messages.ToolOK, kind: "missing_completion_report", batch: []string{"work_item_completed"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			decide, ok := runtimetools.Decisions[c.call.Name]
			if !ok {
				t.Fatalf("no decision for %s", c.call.Name)
			}
			d := decide(c.st, testEnv(), c.call)
			res, out := result(t, d, art, c.seedErr)
			if res.Status != c.status {
				t.Fatalf("status = %s, want %s (%s)", res.Status, c.status, res.Envelope)
			}
			if c.kind != "" && !strings.Contains(string(res.Envelope), `"kind":"`+c.kind+`"`) {
				t.Errorf("envelope %s, want kind %s", res.Envelope, c.kind)
			}
			if c.kind == "" && out.Warning != nil {
				t.Errorf("warning %+v, want none", out.Warning)
			}
			if res.Status != messages.ToolOK {
				if len(d.Batch) > 0 || d.Plan != nil {
					t.Errorf("a refused call decided %v, plan %+v; want nothing", types(d.Batch), d.Plan)
				}
				return
			}
			if got := types(d.Batch); !slices.Equal(got, c.batch) {
				t.Errorf("batch = %v, want %v", got, c.batch)
			}
			if d.Plan == nil || (d.Plan.Seed == nil) != (c.seed == nil) || (c.seed != nil && *d.Plan.Seed != *c.seed) {
				t.Errorf("plan I/O = %+v, want seed %v", d.Plan, c.seed)
			}
			if c.check != nil {
				c.check(t, d.Batch, out)
			}
		})
	}
}
