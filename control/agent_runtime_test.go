package control_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"path/filepath"
	"testing"

	"github.com/rs/zerolog"

	"github.com/holon-actors/holon-actors/actors"
	"github.com/holon-actors/holon-actors/actors/agentstate"
	"github.com/holon-actors/holon-actors/control"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/persistence"
)

// fakeRuntime answers the agent routes' questions from fixed values, with
// no actors behind it. Methods it does not override panic (the embedded
// nil interface): a route calling one shows up as a failed test.
type fakeRuntime struct {
	control.Runtime
	agents map[string]actors.AgentView
	// err, when set, is what View returns.
	err error
}

func (f *fakeRuntime) Exists(_ context.Context, id string) (bool, error) {
	if id == "bad id" {
		return false, fmt.Errorf("check %q: %w", id, actors.ErrInvalidAgentID)
	}
	_, ok := f.agents[id]
	return ok, nil
}

func (f *fakeRuntime) View(_ context.Context, id string) (actors.AgentView, error) {
	if f.err != nil {
		return actors.AgentView{}, f.err
	}
	return f.agents[id], nil
}

func (f *fakeRuntime) List(context.Context) ([]agentstate.AgentInfo, error) {
	var out []agentstate.AgentInfo
	for _, id := range []string{"main", "secret"} {
		out = append(out, f.agents[id].Info)
	}
	return out, nil
}

// serveFake serves rt on a real unix socket and returns a client of it.
func serveFake(t *testing.T, rt control.Runtime) *control.Client {
	t.Helper()
	sock := filepath.Join(t.TempDir(), "control.sock")
	srv := control.NewServer(control.Config{Runtime: rt, Store: persistence.NewMemStore(), Log: zerolog.Nop(),
		DefaultAgentID: "main", Info: control.RuntimeInfo{SocketPath: sock, Version: "test"}})
	l, err := control.ListenUnix(sock)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(l) }()
	c := control.NewUnixClient(sock)
	t.Cleanup(func() {
		c.Close()
		if err := srv.Close(context.Background()); err != nil {
			t.Errorf("close server: %v", err)
		}
		<-done
	})
	return c
}

// TestAgentRoutesOverAFakeRuntime: the status, state, transcript and list
// routes map what the runtime answers onto the API, with no runtime.
func TestAgentRoutesOverAFakeRuntime(t *testing.T) {
	closure := &messages.Closure{Outcome: messages.OutcomeCompleted}
	main := actors.AgentView{Info: agentstate.AgentInfo{ID: "main", Status: messages.StatusAwakeIdle, Active: true},
		TurnIndex: 7, TotalInputTokens: 120, TotalOutputTokens: 30, TotalModelRounds: 9, LastClosure: closure,
		Timers:  map[string]agentstate.TimerState{"t1": {Reason: "sleep"}, "t2": {Reason: "retry"}},
		Context: agentstate.ContextInfo{ConversationItems: 2, EstimatedTokens: 40},
		Queue: []messages.MessageEnvelope{
			{ID: "msg_urgent", Kind: messages.KindOperatorPrompt, Priority: messages.PriorityInterject, Origin: messages.OperatorOrigin("cli"), Body: messages.TextBody("stop")},
			{ID: "msg_later", Kind: messages.KindOperatorPrompt, Priority: messages.PriorityNormal, Origin: messages.OperatorOrigin("cli"), Body: messages.TextBody("then this")}},
		LastSeq:      42,
		Conversation: nil}
	secret := actors.AgentView{Info: agentstate.AgentInfo{ID: "secret", Visibility: messages.VisibilityPrivate}}
	c := serveFake(t, &fakeRuntime{agents: map[string]actors.AgentView{"main": main, "secret": secret}})
	ctx := context.Background()

	st, err := c.Status(ctx, "main")
	if err != nil {
		t.Fatal(err)
	}
	if st.ID != "main" || st.TurnIndex != 7 || st.TotalInputTokens != 120 || st.TotalOutputTokens != 30 ||
		st.TotalModelRounds != 9 || st.PendingTimers != 2 || st.LastClosure == nil || st.Context.EstimatedTokens != 40 {
		t.Errorf("Status = %+v, want the view's fields", st)
	}
	snap, err := c.State(ctx, "main")
	if err != nil {
		t.Fatal(err)
	}
	if len(snap.Queue) != 2 || snap.Queue[0].MessageID != "msg_urgent" || snap.Queue[1].Summary != "then this" ||
		snap.LastEventSeq != 42 || len(snap.Timers) != 2 || snap.Agent.TurnIndex != 7 {
		t.Errorf("State = %+v, want the queue in order, the timers and the last seq", snap)
	}
	items, err := c.Transcript(ctx, "main")
	if err != nil || items == nil || len(items) != 0 {
		t.Errorf("Transcript = %#v, %v; want an empty list", items, err)
	}
	list, err := c.Agents(ctx)
	if err != nil || len(list) != 1 || list[0].ID != "main" {
		t.Errorf("Agents = %+v, %v; want the private agent left out", list, err)
	}
}

// TestAgentRouteErrorsOverAFakeRuntime: the runtime's errors become the
// API's statuses and kinds.
func TestAgentRouteErrorsOverAFakeRuntime(t *testing.T) {
	views := map[string]actors.AgentView{"main": {Info: agentstate.AgentInfo{ID: "main"}}}
	tests := []struct {
		name   string
		id     string
		err    error
		status int
		kind   string
	}{
		{"invalid id", "bad id", nil, http.StatusBadRequest, control.KindBadRequest},
		{"unknown agent", "nobody", nil, http.StatusNotFound, control.KindNotFound},
		{"quarantined", "main", fmt.Errorf("state of main: %w", actors.ErrJournalQuarantined), http.StatusConflict, control.KindJournalQuarantined},
		{"shutting down", "main", actors.ErrRuntimeClosed, http.StatusServiceUnavailable, control.KindUnavailable},
		{"disk full", "main", persistence.ErrDiskFull, http.StatusServiceUnavailable, control.KindUnavailable},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := serveFake(t, &fakeRuntime{agents: views, err: tt.err})
			_, err := c.Status(context.Background(), tt.id)
			if err == nil {
				t.Fatal("Status succeeded")
			}
			apiError(t, err, tt.status, tt.kind)
			if !errors.As(err, new(*control.Error)) {
				t.Errorf("error %v is not an API error", err)
			}
		})
	}
}
