package openai_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/providers"
	"github.com/holon-actors/holon-actors/providers/internal/wiretest"
	"github.com/holon-actors/holon-actors/providers/openai"
)

type sentBody struct {
	PreviousResponseID string            `json:"previous_response_id"`
	Instructions       string            `json:"instructions"`
	Input              []json.RawMessage `json:"input"`
}

func sent(t *testing.T, srv *wiretest.Server, i int) sentBody {
	t.Helper()
	var b sentBody
	if err := json.Unmarshal(srv.Body(i), &b); err != nil {
		t.Fatal(err)
	}
	return b
}

func newIncremental(t *testing.T, srv *wiretest.Server) providers.Provider {
	t.Helper()
	ep := endpoint(srv, "openai", "")
	ep.Incremental = true
	p, err := openai.NewResponses(ep)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// nextRound is req followed by the reply and one tool result, as the
// runtime replays it.
func nextRound(req providers.Request, resp providers.Response) providers.Request {
	next := req
	next.Conversation = append(append([]providers.Item(nil), req.Conversation...),
		providers.Item{Kind: providers.ItemAssistant, Text: resp.Text, ToolCalls: resp.ToolCalls},
		providers.Item{Kind: providers.ItemToolResult, CallID: "call_9", ToolName: "get_weather", Text: "ok: 9°C"})
	next.Frame.ContextBlocks = []providers.Block{{Text: "Turn 1, round 3."}}
	return next
}

func TestIncrementalContinuation(t *testing.T) {
	srv := wiretest.NewServer(t, wiretest.Reply{Body: wiretest.Fixture(t, "responses_tool_call.json")})
	p := newIncremental(t, srv)
	ctx := context.Background()
	first := wiretest.Request()
	resp, err := p.Complete(ctx, first)
	if err != nil {
		t.Fatal(err)
	}
	second := nextRound(first, resp)
	if _, err := p.Complete(ctx, second); err != nil {
		t.Fatal(err)
	}
	b0, b1 := sent(t, srv, 0), sent(t, srv, 1)
	if b0.PreviousResponseID != "" {
		t.Errorf("first request continues %q", b0.PreviousResponseID)
	}
	if b1.PreviousResponseID != "resp_002" || len(b1.Input) != 1 {
		t.Fatalf("second request: previous_response_id %q with %d input items, want resp_002 and only the tool result", b1.PreviousResponseID, len(b1.Input))
	}
	var out struct{ Type, CallID, Output string }
	_ = json.Unmarshal(b1.Input[0], &out)
	if out.Type != "function_call_output" || out.Output != "ok: 9°C" {
		t.Errorf("incremental input = %s", b1.Input[0])
	}
	if b1.Instructions == b0.Instructions {
		t.Error("turn-scoped context did not move with the instructions")
	}

	// A different agent has its own scope: a full request.
	other := wiretest.Request()
	other.Frame.Cache = &providers.PromptCache{AgentID: "agent_2", PromptCacheKey: "pck_abc123"}
	if _, err := p.Complete(ctx, nextRound(other, resp)); err != nil {
		t.Fatal(err)
	}
	if b := sent(t, srv, 2); b.PreviousResponseID != "" {
		t.Errorf("another agent's request continued %q", b.PreviousResponseID)
	}
}

func TestIncrementalFallsBackToFull(t *testing.T) {
	tests := []struct {
		name   string
		change func(r *providers.Request)
	}{
		{"history rewritten (compaction)", func(r *providers.Request) { r.Conversation[0].Text = "summary of earlier work" }},
		{"tool catalog changed", func(r *providers.Request) { r.Tools = r.Tools[:1] }},
		{"no cache identity", func(r *providers.Request) { r.Frame.Cache = nil }},
		{"reply replayed differently", func(r *providers.Request) {
			for i, it := range r.Conversation {
				if it.Kind == providers.ItemAssistant && len(it.ToolCalls) == 1 {
					r.Conversation[i].ToolCalls = []messages.ToolCall{{ID: "call_9", Name: "get_weather", Arguments: json.RawMessage(`{"city":"Oslo"}`)}}
				}
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := wiretest.NewServer(t, wiretest.Reply{Body: wiretest.Fixture(t, "responses_tool_call.json")})
			p := newIncremental(t, srv)
			first := wiretest.Request()
			resp, err := p.Complete(context.Background(), first)
			if err != nil {
				t.Fatal(err)
			}
			second := nextRound(first, resp)
			tt.change(&second)
			if _, err := p.Complete(context.Background(), second); err != nil {
				t.Fatal(err)
			}
			// The full input: the first request's 8 items, the reply's text and
			// call, and the tool result.
			if b := sent(t, srv, 1); b.PreviousResponseID != "" || len(b.Input) != len(sent(t, srv, 0).Input)+3 {
				t.Errorf("request after %s: previous_response_id %q, %d input items; want a full request", tt.name, b.PreviousResponseID, len(b.Input))
			}
		})
	}
}

// TestIncrementalRejectedResendsFull: the server no longer knows the
// previous response (400); the transport resends the full request at once.
func TestIncrementalRejectedResendsFull(t *testing.T) {
	ok := wiretest.Reply{Body: wiretest.Fixture(t, "responses_tool_call.json")}
	notFound := wiretest.Reply{Status: 400, Body: []byte(`{"error":{"message":"Previous response with id 'resp_002' not found.","type":"invalid_request_error","param":"previous_response_id","code":"previous_response_not_found"}}`)}
	srv := wiretest.NewScriptServer(t, ok, notFound, ok)
	p := newIncremental(t, srv)
	first := wiretest.Request()
	resp, err := p.Complete(context.Background(), first)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Complete(context.Background(), nextRound(first, resp)); err != nil {
		t.Fatalf("Complete after a rejected continuation: %v", err)
	}
	if srv.Requests() != 3 || sent(t, srv, 1).PreviousResponseID == "" || sent(t, srv, 2).PreviousResponseID != "" {
		t.Errorf("requests: %d; continuation %q then %q; want a continuation then a full resend",
			srv.Requests(), sent(t, srv, 1).PreviousResponseID, sent(t, srv, 2).PreviousResponseID)
	}
}
