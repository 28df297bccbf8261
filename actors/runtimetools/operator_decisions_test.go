package runtimetools_test

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/holon-actors/holon-actors/actors/agentstate"
	"github.com/holon-actors/holon-actors/actors/runtimetools"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/tools"
)

// callTool runs the runtime-owned tool named by c's Call, as the agent does
// before deciding.
func callTool(t *testing.T, c messages.ToolCall) tools.Result {
	t.Helper()
	for _, tool := range runtimetools.Tools(true) {
		if tool.Spec().Name == c.Name {
			return tool.Call(context.Background(), c.Arguments)
		}
	}
	t.Fatalf("no tool %s", c.Name)
	return tools.Result{}
}

func TestOperatorDecisions(t *testing.T) {
	ptr := runtimetools.Ptr[float64]
	child := func() *agentstate.State {
		st := workState("")
		st.Visibility, st.ParentAgentID = messages.VisibilityPrivate, "p1"
		return st
	}
	cases := []struct {
		name  string
		st    *agentstate.State
		call  messages.ToolCall
		batch []string
		check func(t *testing.T, b agentstate.Batch, valid tools.Result)
	}{
		{name: "sleep decides nothing beyond its result", st: workState(""),
			call: call(agentstate.SleepToolName, runtimetools.SleepArgs{DurationMS: 60000, Reason: "wait"}), batch: []string{}},
		{name: "a question decides nothing beyond its result", st: workState(""),
			call: call(agentstate.RequestInputToolName, map[string]any{"question": "Deploy?", "response_type": "confirm"}), batch: []string{}},
		{name: "should-ask journals the decision its result shows", st: workState(""),
			call:  call(agentstate.ShouldAskToolName, runtimetools.ShouldAskArgs{Confidence: ptr(0.2), Risk: ptr(0.9), Reversibility: ptr(0.1), Context: map[string]string{"action": "drop table"}}),
			batch: []string{string(messages.EventEngagementDecision)},
			check: func(t *testing.T, b agentstate.Batch, valid tools.Result) {
				rec := b[0].(messages.EngagementDecisionRecorded)
				if rec.TurnID != "t1" || rec.CallID != "c0" {
					t.Errorf("recorded for turn %q call %q, want t1 c0", rec.TurnID, rec.CallID)
				}
				var env struct {
					Result messages.EngagementDecision `json:"result"`
				}
				if err := json.Unmarshal(valid.Envelope, &env); err != nil {
					t.Fatal(err)
				}
				got, _ := json.Marshal(rec.Decision)
				want, _ := json.Marshal(env.Result)
				if string(got) != string(want) || rec.Decision.Mode != messages.EngageDefer {
					t.Errorf("journaled %s, the result shows %s (want mode defer)", got, want)
				}
			}},
		{name: "notify goes to the primary operator of a public agent", st: workState(""),
			call:  call(agentstate.NotifyToolName, runtimetools.NotifyArgs{Message: "Build is green\nall 12 suites passed"}),
			batch: []string{string(messages.EventOperatorNotificationRequested)},
			check: func(t *testing.T, b agentstate.Batch, _ tools.Result) {
				n := b[0].(messages.OperatorNotificationRequested).Notification
				if n.NotificationID != "ntf-1" || n.AgentID != "a1" || n.RequestedByAgentID != "a1" || n.Reason != messages.NotifyAgentTool ||
					n.TargetOperatorBoundary != messages.BoundaryPrimaryOperator || n.BoundaryAgentID != "" ||
					n.Summary != "Build is green" || !n.CreatedAt.Equal(testNow) || n.CorrelationID != "t1" || n.CausationID != "m1" {
					t.Errorf("notification %+v", n)
				}
			}},
		{name: "notify of a private child goes to its parent", st: child(),
			call:  call(agentstate.NotifyToolName, runtimetools.NotifyArgs{Message: "stuck on review"}),
			batch: []string{string(messages.EventOperatorNotificationRequested)},
			check: func(t *testing.T, b agentstate.Batch, _ tools.Result) {
				n := b[0].(messages.OperatorNotificationRequested).Notification
				if n.TargetOperatorBoundary != messages.BoundaryParentSupervisor || n.BoundaryAgentID != "p1" {
					t.Errorf("boundary %s %q, want the parent's p1", n.TargetOperatorBoundary, n.BoundaryAgentID)
				}
			}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			valid := callTool(t, c.call)
			if valid.Status != messages.ToolOK {
				t.Fatalf("the tool refused the call: %s", valid.Envelope)
			}
			decide, ok := runtimetools.Decisions[c.call.Name]
			if !ok {
				t.Fatalf("no decision for %s", c.call.Name)
			}
			d := decide(c.st, testEnv(), c.call)
			if d.Result.Status != "" || d.Plan != nil {
				t.Errorf("decided result %+v, plan %+v; want the validated result to stand", d.Result, d.Plan)
			}
			if got := types(d.Batch); !slices.Equal(got, c.batch) {
				t.Errorf("batch = %v, want %v", got, c.batch)
			}
			if c.check != nil && len(d.Batch) > 0 {
				c.check(t, d.Batch, valid)
			}
		})
	}
}

func TestRefusals(t *testing.T) {
	asking := workState("")
	asking.Turn.Ask = &agentstate.AskState{Question: "Deploy?"}
	idle := workState("")
	idle.Turn = nil
	cases := []struct {
		name    string
		tool    string
		st      *agentstate.State
		refused bool
	}{
		{name: "a second question in one turn", tool: agentstate.RequestInputToolName, st: asking, refused: true},
		{name: "the turn's first question", tool: agentstate.RequestInputToolName, st: workState(""), refused: false},
		{name: "no turn", tool: agentstate.RequestInputToolName, st: idle, refused: false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			refuse, ok := runtimetools.Refusals[c.tool]
			if !ok {
				t.Fatalf("no refusal for %s", c.tool)
			}
			res, refused := refuse(c.st)
			if refused != c.refused {
				t.Fatalf("refused = %v, want %v", refused, c.refused)
			}
			if refused && (res.Status != messages.ToolError || !strings.Contains(string(res.Envelope), "already asks the operator a question") ||
				!strings.Contains(string(res.Envelope), `"kind":"`+tools.KindInvalidToolInput+`"`)) {
				t.Errorf("refusal %s %s", res.Status, res.Envelope)
			}
		})
	}
	for _, name := range []string{agentstate.SleepToolName, agentstate.ShouldAskToolName, agentstate.NotifyToolName} {
		if _, ok := runtimetools.Refusals[name]; ok {
			t.Errorf("%s has a refusal; only RequestOperatorInput refuses on the agent's state", name)
		}
	}
}
