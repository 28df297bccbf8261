package openaichat_test

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/providers"
	"github.com/holon-actors/holon-actors/providers/internal/wiretest"
	"github.com/holon-actors/holon-actors/providers/openaichat"
)

func newChat(t testing.TB, srv *wiretest.Server, mode providers.SchemaMode) providers.Provider {
	t.Helper()
	p, err := openaichat.New(providers.Endpoint{Ref: providers.ModelRef{Provider: "ollama", Model: "llama3.2"},
		BaseURL: srv.URL + "/v1/", APIKey: wiretest.APIKey, HTTPClient: srv.Client(), Schema: mode, MaxOutputTokens: 2048})
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return p
}

func TestChatRequestGolden(t *testing.T) {
	for _, tt := range []struct {
		golden string
		mode   providers.SchemaMode
	}{
		{"chat_request.golden.json", providers.SchemaRelaxed},
		{"chat_request_strict.golden.json", providers.SchemaStrict},
	} {
		t.Run(tt.golden, func(t *testing.T) {
			srv := wiretest.NewServer(t, wiretest.Reply{Body: wiretest.Fixture(t, "chat_success.json")})
			p := newChat(t, srv, tt.mode)
			for range 2 { // the second round's tools come from the cache
				if _, err := p.Complete(context.Background(), wiretest.Request()); err != nil {
					t.Fatalf("Complete: %v", err)
				}
			}
			wiretest.Golden(t, tt.golden, srv.Body(0))
			wiretest.Golden(t, tt.golden, srv.Body(1))
			h := srv.Header(0)
			if srv.Path(0) != "/v1/chat/completions" || h.Get("Authorization") != "Bearer "+wiretest.APIKey || h.Get("User-Agent") != "holon-actors" {
				t.Errorf("path %s, Authorization %q, User-Agent %q", srv.Path(0), h.Get("Authorization"), h.Get("User-Agent"))
			}
			if strings.Contains(string(srv.Body(0)), "prompt_cache_key") {
				t.Error("prompt_cache_key sent to a non-OpenAI server")
			}
		})
	}
}

// TestNotificationsRequestGolden: a carrier's notifications go as a system
// message, just before a message carrier's user message and just after a
// tool batch's last tool message.
func TestNotificationsRequestGolden(t *testing.T) {
	srv := wiretest.NewServer(t, wiretest.Reply{Body: wiretest.Fixture(t, "chat_success.json")})
	if _, err := newChat(t, srv, providers.SchemaRelaxed).Complete(context.Background(), wiretest.NotifiedRequest()); err != nil {
		t.Fatalf("Complete: %v", err)
	}
	wiretest.Golden(t, "chat_notifications_request.golden.json", srv.Body(0))

	var body struct {
		Messages []struct {
			Role       string `json:"role"`
			Content    string `json:"content"`
			ToolCallID string `json:"tool_call_id"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(srv.Body(0), &body); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range body.Messages {
		got = append(got, strings.TrimSpace(m.Role+" "+m.ToolCallID))
	}
	want := []string{"system", "user", "system", "user", "assistant", "tool call_1", "tool call_2", "system", "system"}
	if !slices.Equal(got, want) {
		t.Fatalf("messages = %q, want %q", got, want)
	}
	m := body.Messages
	if m[2].Content != messages.RenderSystemNotifications(wiretest.MessageNotifications) || !strings.Contains(m[3].Content, "message msg_2") {
		t.Errorf("messages[2:4] = %+v, want msg_2's notifications right before msg_2", m[2:4])
	}
	if m[7].Content != messages.RenderSystemNotifications(wiretest.BatchNotifications) || m[8].Content != "Turn 1, round 2." {
		t.Errorf("messages[7:] = %+v, want the batch's notifications after its last tool message, then the context", m[7:])
	}
	if strings.Contains(string(srv.Body(0)), `"developer"`) {
		t.Error("developer role sent to a compatible server")
	}
}

func TestChatReplies(t *testing.T) {
	tests := []struct {
		name     string
		fixture  string
		reply    wiretest.Reply
		wantKind providers.ErrorKind
		check    func(t *testing.T, r providers.Response, e *providers.Error)
	}{
		{name: "success", fixture: "chat_success.json", check: func(t *testing.T, r providers.Response, _ *providers.Error) {
			if r.Text != "It is 4°C and raining in Oslo." || r.StopReason != providers.StopEndTurn || r.Usage.TotalTokens != 132 || r.ResponseID != "chatcmpl-001" {
				t.Errorf("response = %+v", r)
			}
		}},
		{name: "tool call", fixture: "chat_tool_call.json", check: func(t *testing.T, r providers.Response, _ *providers.Error) {
			if r.StopReason != providers.StopToolUse || len(r.ToolCalls) != 1 || r.ToolCalls[0].ID != "call_x1" ||
				string(r.ToolCalls[0].Arguments) != `{"city":"Bergen"}` || r.Usage.CacheReadInputTokens != 64 {
				t.Errorf("response = %+v", r)
			}
		}},
		{name: "429 with Retry-After", fixture: "error_429.json", reply: wiretest.Reply{Status: 429, Header: map[string]string{"Retry-After": "4"}},
			wantKind: providers.KindRateLimited, check: func(t *testing.T, _ providers.Response, e *providers.Error) {
				if e.RetryAfter != 4*time.Second {
					t.Errorf("RetryAfter = %v", e.RetryAfter)
				}
			}},
		{name: "500 with a string error", fixture: "error_500.json", reply: wiretest.Reply{Status: 500}, wantKind: providers.KindServer},
		{name: "529", fixture: "error_529.json", reply: wiretest.Reply{Status: 529}, wantKind: providers.KindServer},
		{name: "401", fixture: "error_401.json", reply: wiretest.Reply{Status: 401}, wantKind: providers.KindAuth},
		{name: "context length", fixture: "error_context_length.json", reply: wiretest.Reply{Status: 400}, wantKind: providers.KindContextLength},
		{name: "malformed JSON", fixture: "malformed.json", wantKind: providers.KindProtocol, check: func(t *testing.T, _ providers.Response, e *providers.Error) {
			if e.Diagnostics == nil || e.Diagnostics.Stage != providers.StageDecode || !e.Diagnostics.HTTP.IsDecode {
				t.Errorf("diagnostics = %+v", e.Diagnostics)
			}
		}},
		{name: "not JSON at all", reply: wiretest.Reply{ContentType: "text/html", Body: []byte("<html></html>")}, wantKind: providers.KindProtocol},
		{name: "no choices", reply: wiretest.Reply{Body: []byte(`{"id":"x","choices":[]}`)}, wantKind: providers.KindProtocol},
		{name: "null", reply: wiretest.Reply{Body: []byte(`null`)}, wantKind: providers.KindProtocol},
		{name: "refusal", reply: wiretest.Reply{Body: []byte(`{"id":"r","choices":[{"message":{"content":null,"refusal":"I can't."},"finish_reason":"stop"}]}`)},
			check: func(t *testing.T, r providers.Response, _ *providers.Error) {
				if r.Text != "I can't." || r.StopReason != providers.StopRefusal {
					t.Errorf("response = %+v", r)
				}
			}},
		{name: "length", reply: wiretest.Reply{Body: []byte(`{"id":"l","choices":[{"message":{"content":"It is"},"finish_reason":"length"}]}`)},
			check: func(t *testing.T, r providers.Response, _ *providers.Error) {
				if r.Text != "It is" || r.StopReason != providers.StopMaxTokens {
					t.Errorf("response = %+v", r)
				}
			}},
		{name: "arguments as an object, empty arguments, a custom tool call", reply: wiretest.Reply{Body: []byte(`{"id":"t","choices":[{"message":{"tool_calls":[
			{"id":"c1","type":"function","function":{"name":"get_weather","arguments":{"city":"Bergen"}}},
			{"id":"c2","function":{"name":"get_time","arguments":""}},
			{"id":"c3","type":"custom","custom":{"name":"x","input":"y"}}]},"finish_reason":"tool_calls"}]}`)},
			check: func(t *testing.T, r providers.Response, _ *providers.Error) {
				if r.StopReason != providers.StopToolUse || len(r.ToolCalls) != 2 ||
					string(r.ToolCalls[0].Arguments) != `{"city":"Bergen"}` || string(r.ToolCalls[1].Arguments) != `{}` {
					t.Errorf("response = %+v", r)
				}
			}},
		{name: "usage that is not integers", reply: wiretest.Reply{Body: []byte(`{"id":"u","choices":[{"message":{"content":"x"}}],
			"usage":{"prompt_tokens":"12","completion_tokens":3.0,"total_tokens":-4,"prompt_tokens_details":{"cached_tokens":1e20}}}`)},
			check: func(t *testing.T, r providers.Response, _ *providers.Error) {
				want := messages.TokenUsage{InputTokens: 12, OutputTokens: 3, CacheReadInputTokens: math.MaxInt64}
				if r.Usage != want {
					t.Errorf("usage = %+v, want %+v", r.Usage, want)
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
			resp, err := newChat(t, srv, "").Complete(context.Background(), wiretest.Request())
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
			if strings.Contains(err.Error()+string(b), wiretest.APIKey) {
				t.Errorf("the key leaks: %v %s", err, b)
			}
			if tt.check != nil {
				tt.check(t, resp, e)
			}
		})
	}
}

func TestChatStall(t *testing.T) {
	srv := wiretest.NewServer(t, wiretest.Reply{Body: []byte(`{"id":"chatcmpl-9","choices":[`), Stall: true})
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	if _, err := newChat(t, srv, "").Complete(ctx, wiretest.Request()); providers.KindOf(err) != providers.KindTimeout {
		t.Fatalf("Complete = %v, want timeout", err)
	}
}

func TestChatNeedsBaseURL(t *testing.T) {
	_, err := openaichat.New(providers.Endpoint{Ref: providers.ModelRef{Provider: "vllm", Model: "qwen"}})
	if providers.KindOf(err) != providers.KindNotConfigured {
		t.Errorf("New(no base url) = %v, want not_configured", err)
	}
}

func TestChatConnectionRefused(t *testing.T) {
	srv := wiretest.NewServer(t, wiretest.Reply{})
	p := newChat(t, srv, "")
	srv.Close()
	_, err := p.Complete(context.Background(), wiretest.Request())
	var e *providers.Error
	if !errors.As(err, &e) || e.Kind != providers.KindConnection {
		t.Fatalf("Complete error = %v, want kind connection", err)
	}
	b, _ := json.Marshal(providers.FailureOf(err))
	if strings.Contains(err.Error()+string(b), wiretest.APIKey) {
		t.Errorf("the key leaks: %v %s", err, b)
	}
}

// TestChatOpenAIRequest: OpenAI itself gets prompt_cache_key, after
// max_tokens; a server without a key gets no Authorization header.
func TestChatOpenAIRequest(t *testing.T) {
	for _, tt := range []struct {
		provider string
		key      providers.Secret
		want     string
	}{
		{"openai", wiretest.APIKey, `"max_tokens":2048,"prompt_cache_key":"pck_abc123","tools":[`},
		{"ollama", "", `"max_tokens":2048,"tools":[`},
	} {
		t.Run(tt.provider, func(t *testing.T) {
			srv := wiretest.NewServer(t, wiretest.Reply{Body: wiretest.Fixture(t, "chat_success.json")})
			p, err := openaichat.New(providers.Endpoint{Ref: providers.ModelRef{Provider: tt.provider, Model: "m"},
				BaseURL: srv.URL, APIKey: tt.key, HTTPClient: srv.Client(), MaxOutputTokens: 2048})
			if err != nil {
				t.Fatalf("New: %v", err)
			}
			if _, err := p.Complete(context.Background(), wiretest.Request()); err != nil {
				t.Fatalf("Complete: %v", err)
			}
			if body := string(srv.Body(0)); !strings.Contains(body, tt.want) {
				t.Errorf("body = %s, want it to contain %s", body, tt.want)
			}
			if got, ok := srv.Header(0)["Authorization"]; ok != (tt.key != "") {
				t.Errorf("Authorization = %q with key %q", got, tt.key)
			}
		})
	}
}

// TestChatAssistantWithoutText: an assistant round with tool calls and no
// text sends no content; text is written without HTML escapes.
func TestChatAssistantWithoutText(t *testing.T) {
	srv := wiretest.NewServer(t, wiretest.Reply{Body: wiretest.Fixture(t, "chat_success.json")})
	req := providers.Request{Conversation: []providers.Item{
		{Kind: providers.ItemMessage, Text: "Is 1 < 2 && 3 > 2?"},
		{Kind: providers.ItemAssistant, ToolCalls: []messages.ToolCall{{ID: "call_1", Name: "calc"}}},
		{Kind: providers.ItemToolResult, CallID: "call_1", Text: ""},
	}}
	if _, err := newChat(t, srv, "").Complete(context.Background(), req); err != nil {
		t.Fatalf("Complete: %v", err)
	}
	want := `{"messages":[{"content":"Is 1 < 2 && 3 > 2?","role":"user"},` +
		`{"tool_calls":[{"id":"call_1","function":{"arguments":"{}","name":"calc"},"type":"function"}],"role":"assistant"},` +
		`{"content":"","tool_call_id":"call_1","role":"tool"}],"model":"llama3.2","max_tokens":2048}`
	if got := string(srv.Body(0)); got != want {
		t.Errorf("body = %s\nwant   %s", got, want)
	}
}
