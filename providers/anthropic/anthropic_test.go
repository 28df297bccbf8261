package anthropic_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/holon-actors/holon-actors/providers"
	"github.com/holon-actors/holon-actors/providers/anthropic"
	"github.com/holon-actors/holon-actors/providers/internal/wiretest"
)

func newMessages(t *testing.T, srv *wiretest.Server, mode providers.SchemaMode) providers.Provider {
	t.Helper()
	p, err := anthropic.New(providers.Endpoint{Ref: providers.ModelRef{Provider: "anthropic", Model: "claude-sonnet-4-5"},
		BaseURL: srv.URL, APIKey: wiretest.APIKey, HTTPClient: srv.Client(), Schema: mode})
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return p
}

func TestMessagesRequestGolden(t *testing.T) {
	srv := wiretest.NewServer(t, wiretest.Reply{Body: wiretest.Fixture(t, "messages_success.json")})
	if _, err := newMessages(t, srv, "").Complete(context.Background(), wiretest.Request()); err != nil {
		t.Fatalf("Complete: %v", err)
	}
	wiretest.Golden(t, "messages_request.golden.json", srv.Body(0))
	if srv.Path(0) != "/v1/messages" || srv.Header(0).Get("X-Api-Key") != wiretest.APIKey || srv.Header(0).Get("Anthropic-Version") == "" {
		t.Errorf("path %s, headers %v", srv.Path(0), srv.Header(0))
	}

	var body struct {
		System []struct {
			Text         string          `json:"text"`
			CacheControl json.RawMessage `json:"cache_control"`
		} `json:"system"`
		Messages []struct {
			Role    string            `json:"role"`
			Content []json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(srv.Body(0), &body); err != nil {
		t.Fatal(err)
	}
	if len(body.System) != 2 || body.System[0].CacheControl != nil || string(body.System[1].CacheControl) != `{"type":"ephemeral"}` {
		t.Errorf("system blocks = %+v, want the breakpoint only on the marked block", body.System)
	}
	if n := strings.Count(string(srv.Body(0)), `"cache_control"`); n != 2 {
		t.Errorf("%d cache_control markers, want 2 (one system breakpoint, one rolling)", n)
	}
	roles := []string{}
	for _, m := range body.Messages {
		roles = append(roles, m.Role)
	}
	if strings.Join(roles, ",") != "user,assistant,user" {
		t.Errorf("roles = %v, want user,assistant,user", roles)
	}
	last := body.Messages[2].Content
	if !strings.Contains(string(last[0]), `"tool_use_id":"call_1"`) || !strings.Contains(string(last[1]), `"is_error":true`) ||
		!strings.Contains(string(last[2]), `"cache_control"`) || !strings.Contains(string(last[3]), "Turn 1, round 2.") {
		t.Errorf("last user message = %s", last)
	}
}

func TestMessagesReplies(t *testing.T) {
	tests := []struct {
		name     string
		fixture  string
		reply    wiretest.Reply
		wantKind providers.ErrorKind
		check    func(t *testing.T, r providers.Response, e *providers.Error)
	}{
		{name: "success", fixture: "messages_success.json", check: func(t *testing.T, r providers.Response, _ *providers.Error) {
			u := r.Usage
			if r.Text != "It is 4°C and raining in Oslo." || r.StopReason != providers.StopEndTurn || r.ResponseID != "msg_01A" ||
				u.InputTokens != 50 || u.CacheReadInputTokens != 1000 || u.CacheCreationInputTokens != 200 || u.TotalTokens != 1265 {
				t.Errorf("response = %+v", r)
			}
		}},
		{name: "tool use", fixture: "messages_tool_use.json", check: func(t *testing.T, r providers.Response, _ *providers.Error) {
			if r.StopReason != providers.StopToolUse || len(r.ToolCalls) != 1 || r.ToolCalls[0].ID != "toolu_01" ||
				string(r.ToolCalls[0].Arguments) != `{"city": "Bergen"}` {
				t.Errorf("response = %+v", r)
			}
		}},
		{name: "429 with Retry-After", fixture: "error_429.json", reply: wiretest.Reply{Status: 429, Header: map[string]string{"Retry-After": "5"}},
			wantKind: providers.KindRateLimited, check: func(t *testing.T, _ providers.Response, e *providers.Error) {
				if e.RetryAfter != 5*time.Second {
					t.Errorf("RetryAfter = %v, want 5s", e.RetryAfter)
				}
			}},
		{name: "500", fixture: "error_500.json", reply: wiretest.Reply{Status: 500}, wantKind: providers.KindServer},
		{name: "529 overloaded", fixture: "error_529.json", reply: wiretest.Reply{Status: 529}, wantKind: providers.KindServer},
		{name: "401", fixture: "error_401.json", reply: wiretest.Reply{Status: 401}, wantKind: providers.KindAuth},
		{name: "prompt too long", fixture: "error_context_length.json", reply: wiretest.Reply{Status: 400}, wantKind: providers.KindContextLength},
		{name: "malformed JSON", fixture: "malformed.json", wantKind: providers.KindProtocol},
		{name: "not a message", reply: wiretest.Reply{Body: []byte(`{"hello":"world"}`)}, wantKind: providers.KindProtocol},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			reply := tt.reply
			if tt.fixture != "" {
				reply.Body = wiretest.Fixture(t, tt.fixture)
			}
			srv := wiretest.NewServer(t, reply)
			resp, err := newMessages(t, srv, "").Complete(context.Background(), wiretest.Request())
			if tt.wantKind == "" {
				if err != nil {
					t.Fatalf("Complete: %v", err)
				}
				tt.check(t, resp, nil)
				return
			}
			var e *providers.Error
			if !errors.As(err, &e) || e.Kind != tt.wantKind {
				t.Fatalf("Complete error = %v, want kind %s", err, tt.wantKind)
			}
			if strings.Contains(err.Error(), wiretest.APIKey) {
				t.Errorf("error leaks the key: %v", err)
			}
			if tt.check != nil {
				tt.check(t, resp, e)
			}
		})
	}
}

// TestMessagesStall: the server sends half a body and goes quiet; the
// caller's deadline ends the call as a timeout.
func TestMessagesStall(t *testing.T) {
	srv := wiretest.NewServer(t, wiretest.Reply{Body: []byte(`{"id":"msg_1","type":"message","content":[`), Stall: true})
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	_, err := newMessages(t, srv, "").Complete(ctx, wiretest.Request())
	if providers.KindOf(err) != providers.KindTimeout {
		t.Fatalf("Complete = %v, want timeout", err)
	}
}

func TestMessagesStrictTools(t *testing.T) {
	srv := wiretest.NewServer(t, wiretest.Reply{Body: wiretest.Fixture(t, "messages_success.json")})
	if _, err := newMessages(t, srv, providers.SchemaStrict).Complete(context.Background(), wiretest.Request()); err != nil {
		t.Fatalf("Complete: %v", err)
	}
	var body struct {
		Tools []struct {
			Strict      bool           `json:"strict"`
			InputSchema map[string]any `json:"input_schema"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(srv.Body(0), &body); err != nil {
		t.Fatal(err)
	}
	s := body.Tools[0].InputSchema
	if !body.Tools[0].Strict || s["additionalProperties"] != false || len(s["required"].([]any)) != 2 {
		t.Errorf("strict tool = %+v", body.Tools[0])
	}
}
