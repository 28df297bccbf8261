package actors_test

import (
	"context"
	"testing"

	"github.com/holon-actors/holon-actors/actors"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/testkit"
)

// TestApprovalPendingInterruptAndStop: an interrupt or a stop that comes
// while a call waits for the operator's approval ends the turn without
// running the call, resolves its question (no open suspension is left
// to answer), and leaves the agent usable: its next prompt is handled.
func TestApprovalPendingInterruptAndStop(t *testing.T) {
	for _, tc := range []struct {
		name string
		end  func(ctx context.Context, r *actors.Runtime) error
	}{
		{"interrupt", func(ctx context.Context, r *actors.Runtime) error {
			_, err := r.Interrupt(ctx, "main", "", "changed my mind")
			return err
		}},
		{"stop", func(ctx context.Context, r *actors.Runtime) error {
			if _, err := r.Control(ctx, "main", actors.OpStop, "stop everything"); err != nil {
				return err
			}
			_, err := r.Control(ctx, "main", actors.OpResume, "back to work")
			return err
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := testkit.NewWith(t, testkit.Options{
				Steps: []testkit.Step{
					testkit.Reply("", testkit.Call("c1", "echo", `{"text":"risky"}`)),
					testkit.Reply("Handled the next prompt."),
				},
				Deps: func(_ string, d *actors.AgentDeps) {
					d.ToolApproval = messages.ToolApprovals{Default: []messages.ApprovalRule{{Tool: "echo", Mode: messages.ApprovalAsk}}}
				},
			})
			ctx := context.Background()
			h.Prompt("main", "Do the risky thing.")
			asked := decode[messages.SuspensionRequested](t, h.WaitEvent("main", testkit.OfType(messages.EventSuspensionRequested)))
			if asked.Suspension.ToolApproval() == nil {
				t.Fatalf("suspension = %+v, want a tool approval", asked.Suspension)
			}
			if err := tc.end(ctx, h.Runtime); err != nil {
				t.Fatal(err)
			}
			ended := decode[messages.TurnTerminal](t, h.WaitEvent("main", testkit.OfType(messages.EventTurnTerminal)))
			if ended.Kind == messages.TerminalCompleted {
				t.Fatalf("turn terminal = %+v, want the turn ended before its call", ended)
			}
			in, err := h.Runtime.Info(ctx, "main")
			if err != nil || len(in.OpenSuspensions) != 0 || in.Status == messages.StatusSuspended {
				t.Fatalf("info after %s = %+v, %v; want no open question and not suspended", tc.name, in, err)
			}

			h.Prompt("main", "Something else.")
			briefWith(t, h, "main", messages.BriefResult, "Handled the next prompt.")
			if got := h.Echo.Executions(); len(got) != 0 {
				t.Fatalf("echo ran %v: a call waiting for approval must never run", got)
			}
			for _, ev := range h.Events("main") {
				if ev.Type == messages.EventToolCallStarted {
					t.Fatalf("the call waiting for approval was started: %s", ev.Payload)
				}
			}
			if _, err := h.Runtime.Respond(ctx, "main", actors.Answer{SuspensionID: asked.Suspension.ID, Value: []byte(`"yes"`)}); err == nil {
				t.Fatal("a yes to the ended question was accepted")
			}
		})
	}
}
