package anthropic_test

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/providers"
	"github.com/holon-actors/holon-actors/providers/anthropic"
	"github.com/holon-actors/holon-actors/providers/internal/wiretest"
)

func newMessages(t testing.TB, srv *wiretest.Server, mode providers.SchemaMode) providers.Provider {
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

// TestNotificationsRequestGolden: a carrier's notifications go as one text
// block, before a message carrier's text and after a tool batch's
// tool_result blocks, where the rolling cache marker then sits.
func TestNotificationsRequestGolden(t *testing.T) {
	srv := wiretest.NewServer(t, wiretest.Reply{Body: wiretest.Fixture(t, "messages_success.json")})
	if _, err := newMessages(t, srv, "").Complete(context.Background(), wiretest.NotifiedRequest()); err != nil {
		t.Fatalf("Complete: %v", err)
	}
	wiretest.Golden(t, "messages_notifications_request.golden.json", srv.Body(0))

	type block struct {
		Type         string          `json:"type"`
		Text         string          `json:"text"`
		ToolUseID    string          `json:"tool_use_id"`
		CacheControl json.RawMessage `json:"cache_control"`
	}
	var body struct {
		Messages []struct {
			Role    string  `json:"role"`
			Content []block `json:"content"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(srv.Body(0), &body); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range body.Messages {
		var blocks []string
		for _, b := range m.Content {
			blocks = append(blocks, b.Type+b.ToolUseID)
		}
		got = append(got, m.Role+": "+strings.Join(blocks, ","))
	}
	want := []string{"user: text,text,text", "assistant: text,tool_use,tool_use", "user: tool_resultcall_1,tool_resultcall_2,text,text"}
	if !slices.Equal(got, want) {
		t.Fatalf("messages = %q, want %q", got, want)
	}
	first, last := body.Messages[0].Content, body.Messages[2].Content
	if !strings.Contains(first[0].Text, "message msg_1") || first[1].Text != messages.RenderSystemNotifications(wiretest.MessageNotifications) ||
		!strings.Contains(first[2].Text, "message msg_2") {
		t.Errorf("first user message = %+v, want msg_1, then msg_2's notifications right before msg_2", first)
	}
	if last[2].Text != messages.RenderSystemNotifications(wiretest.BatchNotifications) || last[3].Text != "Turn 1, round 2." {
		t.Errorf("last user message = %+v, want the batch's notifications after its tool results, then the context", last)
	}
	if string(last[2].CacheControl) != `{"type":"ephemeral"}` {
		t.Errorf("rolling cache marker on %+v, want it on the block before the context (the notifications)", last[2])
	}
	if n := strings.Count(string(srv.Body(0)), `"cache_control"`); n != 2 {
		t.Errorf("%d cache_control markers, want 2 (one system breakpoint, one rolling)", n)
	}
}

// TestNotificationsKeepToolResultsFirst: a message carrier that joins a
// tool batch's user message puts its notifications before its own text,
// after the tool_result blocks and the batch's notifications.
func TestNotificationsKeepToolResultsFirst(t *testing.T) {
	req := wiretest.NotifiedRequest()
	late := []messages.SystemNotification{{Kind: "provider.fallback", Level: messages.LevelInfo, Message: "Fell back to the second model."}}
	req.Conversation = append(req.Conversation, providers.Item{Kind: providers.ItemMessage, MessageID: "msg_3", Text: "Also Bergen.", Notifications: late})
	srv := wiretest.NewServer(t, wiretest.Reply{Body: wiretest.Fixture(t, "messages_success.json")})
	if _, err := newMessages(t, srv, "").Complete(context.Background(), req); err != nil {
		t.Fatalf("Complete: %v", err)
	}
	var body struct {
		Messages []struct {
			Content []struct {
				Type string `json:"type"`
				Text string `json:"text"`
			} `json:"content"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(srv.Body(0), &body); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, b := range body.Messages[len(body.Messages)-1].Content {
		got = append(got, b.Type+" "+strings.SplitN(b.Text, "\n", 2)[0])
	}
	want := []string{"tool_result ", "tool_result ", "text ---", "text ---", "text [message msg_3]", "text Turn 1, round 2."}
	if !slices.Equal(got, want) {
		t.Fatalf("last user message = %q, want %q", got, want)
	}
	if last := body.Messages[len(body.Messages)-1].Content; last[3].Text != messages.RenderSystemNotifications(late) {
		t.Errorf("block before msg_3 = %q, want msg_3's notifications", last[3].Text)
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
