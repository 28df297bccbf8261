package openaichat_test

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
			if _, err := newChat(t, srv, tt.mode).Complete(context.Background(), wiretest.Request()); err != nil {
				t.Fatalf("Complete: %v", err)
			}
			wiretest.Golden(t, tt.golden, srv.Body(0))
			if srv.Path(0) != "/v1/chat/completions" || srv.Header(0).Get("Authorization") != "Bearer "+wiretest.APIKey {
				t.Errorf("path %s, Authorization %q", srv.Path(0), srv.Header(0).Get("Authorization"))
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
		{name: "malformed JSON", fixture: "malformed.json", wantKind: providers.KindProtocol},
		{name: "no choices", reply: wiretest.Reply{Body: []byte(`{"id":"x","choices":[]}`)}, wantKind: providers.KindProtocol},
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
