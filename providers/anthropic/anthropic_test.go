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
	if srv.Path(0) != "/v1/messages" {
		t.Errorf("path %s, want /v1/messages", srv.Path(0))
	}
	for k, want := range map[string]string{"X-Api-Key": wiretest.APIKey, "Anthropic-Version": "2023-06-01",
		"User-Agent": "holon-actors", "Content-Type": "application/json"} {
		if got := srv.Header(0).Get(k); got != want {
			t.Errorf("header %s = %q, want %q", k, got, want)
		}
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
		{name: "malformed JSON", fixture: "malformed.json", wantKind: providers.KindProtocol, check: func(t *testing.T, _ providers.Response, e *providers.Error) {
			if e.Diagnostics == nil || e.Diagnostics.Stage != providers.StageDecode || !e.Diagnostics.HTTP.IsDecode {
				t.Errorf("diagnostics = %+v", e.Diagnostics)
			}
		}},
		{name: "not a message", reply: wiretest.Reply{Body: []byte(`{"hello":"world"}`)}, wantKind: providers.KindProtocol},
		{name: "null", reply: wiretest.Reply{Body: []byte(`null`)}, wantKind: providers.KindProtocol},
		{name: "JSON of another shape", reply: wiretest.Reply{Body: []byte(`{"id":7,"type":"message"}`)}, wantKind: providers.KindProtocol},
		{name: "trailing data", reply: wiretest.Reply{Body: []byte(`{"id":"msg_1","type":"message","content":[]} x`)}, wantKind: providers.KindProtocol},
		{name: "302 without a location", reply: wiretest.Reply{Status: 302}, wantKind: providers.KindProtocol},
		{name: "refusal, other blocks skipped", reply: wiretest.Reply{Body: []byte(`{"id":"msg_1","type":"message","model":"m","content":[` +
			`{"type":"thinking","thinking":"hm","signature":"s"},{"type":"text","text":"No."}],"stop_reason":"refusal"}`)},
			check: func(t *testing.T, r providers.Response, _ *providers.Error) {
				if r.Text != "No." || r.StopReason != providers.StopRefusal || len(r.ToolCalls) != 0 {
					t.Errorf("response = %+v", r)
				}
			}},
		{name: "cut by max_tokens", reply: wiretest.Reply{Body: []byte(`{"id":"msg_1","type":"message","model":"m","content":[],"stop_reason":"max_tokens"}`)},
			check: func(t *testing.T, r providers.Response, _ *providers.Error) {
				if r.StopReason != providers.StopMaxTokens {
					t.Errorf("stop reason = %q, want %q", r.StopReason, providers.StopMaxTokens)
				}
			}},
		{name: "tool use without input", reply: wiretest.Reply{Body: []byte(`{"id":"msg_1","type":"message","model":"m","content":[` +
			`{"type":"tool_use","id":"t1","name":"get_time"},{"type":"tool_use","id":"t2","name":"get_time","input":null}],"stop_reason":"tool_use"}`)},
			check: func(t *testing.T, r providers.Response, _ *providers.Error) {
				if len(r.ToolCalls) != 2 || string(r.ToolCalls[0].Arguments) != `{}` || string(r.ToolCalls[1].Arguments) != `{}` {
					t.Errorf("tool calls = %+v, want both with arguments {}", r.ToolCalls)
				}
			}},
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
			b, _ := json.Marshal(providers.FailureOf(err))
			if strings.Contains(err.Error(), wiretest.APIKey) || strings.Contains(string(b), wiretest.APIKey) {
				t.Errorf("error leaks the key: %v %s", err, b)
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

func TestMessagesConnectionRefused(t *testing.T) {
	srv := wiretest.NewServer(t, wiretest.Reply{})
	p := newMessages(t, srv, "")
	srv.Close()
	_, err := p.Complete(context.Background(), wiretest.Request())
	var e *providers.Error
	if !errors.As(err, &e) || e.Kind != providers.KindConnection || e.Diagnostics == nil || !e.Diagnostics.HTTP.IsConnect {
		t.Fatalf("Complete = %v, want a connection error", err)
	}
	if strings.Contains(err.Error(), wiretest.APIKey) {
		t.Errorf("error leaks the key: %v", err)
	}
}

// TestMessagesWithoutKey: no key, no x-api-key header (a proxy may add it).
func TestMessagesWithoutKey(t *testing.T) {
	srv := wiretest.NewServer(t, wiretest.Reply{Body: wiretest.Fixture(t, "messages_success.json")})
	p, err := anthropic.New(providers.Endpoint{Ref: providers.ModelRef{Provider: "anthropic", Model: "claude-sonnet-4-5"},
		BaseURL: srv.URL + "/", HTTPClient: srv.Client()})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Complete(context.Background(), wiretest.Request()); err != nil {
		t.Fatalf("Complete: %v", err)
	}
	if _, ok := srv.Header(0)["X-Api-Key"]; ok || srv.Path(0) != "/v1/messages" {
		t.Errorf("path %s, headers %v", srv.Path(0), srv.Header(0))
	}
}

// TestMessagesRequestShapes pins what the goldens do not show.
func TestMessagesRequestShapes(t *testing.T) {
	tests := []struct {
		name string
		edit func(r *providers.Request)
		want []string // substrings of the body
		not  []string
	}{
		{name: "no tools, no system", edit: func(r *providers.Request) { r.Tools, r.Frame.SystemPrompt, r.Frame.SystemBlocks = nil, "", nil },
			want: []string{`"tools":[]`}, not: []string{`"system"`}},
		{name: "numeric schema keywords stay numbers", edit: func(r *providers.Request) {
			r.Tools = []providers.ToolSpec{{Name: "n", Parameters: json.RawMessage(`{"type":"object","properties":{"n":{"type":"number","minimum":1.5}},"maxProperties":3}`)}}
		}, want: []string{`"input_schema":{"properties":{"n":{"minimum":1.5,"type":"number"}},"type":"object","additionalProperties":false,"maxProperties":3},"name":"n"}`}},
		{name: "extra keywords sorted, a required that is not a list dropped", edit: func(r *providers.Request) {
			r.Tools = []providers.ToolSpec{{Name: "x", Parameters: json.RawMessage(`{"type":"object","title":"X","required":"a","$comment":"c"}`)}}
		}, want: []string{`"input_schema":{"properties":{},"type":"object","$comment":"c","additionalProperties":false,"title":"X"}`}},
		{name: "no conversation", edit: func(r *providers.Request) { r.Conversation, r.Frame.ContextBlocks = nil, nil },
			want: []string{`"messages":[]`}},
		{name: "rolling marker on a trailing tool_result", edit: func(r *providers.Request) { r.Conversation = r.Conversation[:5] },
			want: []string{`{"tool_use_id":"call_2","is_error":true,"cache_control":{"type":"ephemeral"},"content":[{"text":"error: clock unavailable","type":"text"}],"type":"tool_result"}`}},
		{name: "empty context after an assistant round adds no message", edit: func(r *providers.Request) {
			r.Conversation = r.Conversation[:3]
			r.Frame.ContextBlocks = []providers.Block{{Text: ""}}
		}, not: []string{`{"role":"user"}`, `"content":null`}},
		{name: "context after an assistant round is a user message", edit: func(r *providers.Request) { r.Conversation = r.Conversation[:3] },
			want: []string{`"role":"assistant"},{"content":[{"text":"Turn 1, round 2.","type":"text"}],"role":"user"}]`}},
		{name: "empty results and rounds stay valid", edit: func(r *providers.Request) {
			r.Conversation = []providers.Item{{Kind: providers.ItemAssistant},
				{Kind: providers.ItemAssistant, ToolCalls: []messages.ToolCall{{ID: "c1", Name: "x"}}},
				{Kind: providers.ItemToolResult, CallID: "c1"}}
		}, want: []string{`{"content":[{"text":"(no reply)","type":"text"}],"role":"assistant"}`, `{"id":"c1","input":{},"name":"x","type":"tool_use"}`,
			`"content":[{"text":"(empty)","type":"text"}]`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := wiretest.NewServer(t, wiretest.Reply{Body: wiretest.Fixture(t, "messages_success.json")})
			req := wiretest.Request()
			tt.edit(&req)
			if _, err := newMessages(t, srv, "").Complete(context.Background(), req); err != nil {
				t.Fatalf("Complete: %v", err)
			}
			body := string(srv.Body(0))
			for _, w := range tt.want {
				if !strings.Contains(body, w) {
					t.Errorf("body lacks %s:\n%s", w, body)
				}
			}
			for _, n := range tt.not {
				if strings.Contains(body, n) {
					t.Errorf("body has %s:\n%s", n, body)
				}
			}
		})
	}
}

// TestMessagesBadArguments: a tool call whose arguments are not JSON fails
// the round as a bad request before anything is sent.
func TestMessagesBadArguments(t *testing.T) {
	srv := wiretest.NewServer(t, wiretest.Reply{Body: wiretest.Fixture(t, "messages_success.json")})
	req := wiretest.Request()
	req.Conversation[2].ToolCalls[0].Arguments = json.RawMessage(`{"city":`)
	_, err := newMessages(t, srv, "").Complete(context.Background(), req)
	if providers.KindOf(err) != providers.KindBadRequest || srv.Requests() != 0 {
		t.Fatalf("Complete = %v after %d requests, want a bad request and none sent", err, srv.Requests())
	}
}
