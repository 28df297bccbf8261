package openai_test

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
	"github.com/holon-actors/holon-actors/providers/openai"
)

func endpoint(srv *wiretest.Server, provider string, mode providers.SchemaMode) providers.Endpoint {
	model := "gpt-5"
	if provider == "openai-codex" {
		model = "gpt-5-codex"
	}
	return providers.Endpoint{Ref: providers.ModelRef{Provider: provider, Model: model}, BaseURL: srv.URL + "/v1/",
		APIKey: wiretest.APIKey, HTTPClient: srv.Client(), Schema: mode, MaxOutputTokens: 4096}
}

func newResponses(t testing.TB, srv *wiretest.Server, mode providers.SchemaMode) providers.Provider {
	t.Helper()
	p, err := openai.NewResponses(endpoint(srv, "openai", mode))
	if err != nil {
		t.Fatalf("NewResponses: %v", err)
	}
	return p
}

func newCodex(t *testing.T, srv *wiretest.Server) providers.Provider {
	t.Helper()
	p, err := openai.NewCodex(endpoint(srv, "openai-codex", ""))
	if err != nil {
		t.Fatalf("NewCodex: %v", err)
	}
	return p
}

func TestResponsesRequestGolden(t *testing.T) {
	for _, tt := range []struct {
		golden string
		mode   providers.SchemaMode
	}{
		{"responses_request.golden.json", providers.SchemaRelaxed},
		{"responses_request_strict.golden.json", providers.SchemaStrict},
	} {
		t.Run(tt.golden, func(t *testing.T) {
			srv := wiretest.NewServer(t, wiretest.Reply{Body: wiretest.Fixture(t, "responses_success.json")})
			if _, err := newResponses(t, srv, tt.mode).Complete(context.Background(), wiretest.Request()); err != nil {
				t.Fatalf("Complete: %v", err)
			}
			wiretest.Golden(t, tt.golden, srv.Body(0))
			if got := srv.Path(0); got != "/v1/responses" {
				t.Errorf("path = %s, want /v1/responses", got)
			}
			if got := srv.Header(0).Get("Authorization"); got != "Bearer "+wiretest.APIKey {
				t.Errorf("Authorization header = %q", got)
			}
			checkResponsesBody(t, srv.Body(0), false)
		})
	}
}

// checkResponsesBody checks field names against the OpenAPI document's
// CreateResponse schema and the transport rules.
func checkResponsesBody(t *testing.T, raw []byte, codex bool) {
	t.Helper()
	var body map[string]json.RawMessage
	if err := json.Unmarshal(raw, &body); err != nil {
		t.Fatal(err)
	}
	known := map[string]bool{"model": true, "input": true, "instructions": true, "tools": true, "prompt_cache_key": true,
		"max_output_tokens": true, "reasoning": true, "include": true, "store": true, "stream": true}
	for k := range body {
		if !known[k] {
			t.Errorf("unexpected request field %q", k)
		}
	}
	if string(body["prompt_cache_key"]) != `"pck_abc123"` {
		t.Errorf("prompt_cache_key = %s", body["prompt_cache_key"])
	}
	_, hasMax := body["max_output_tokens"]
	if codex {
		if hasMax || string(body["reasoning"]) != "null" || string(body["include"]) != "[]" ||
			string(body["stream"]) != "true" || string(body["store"]) != "false" {
			t.Errorf("codex body breaks the codex rules: max_output_tokens present=%v reasoning=%s include=%s stream=%s store=%s",
				hasMax, body["reasoning"], body["include"], body["stream"], body["store"])
		}
	} else if !hasMax {
		t.Error("max_output_tokens missing from the openai body")
	}
}

func TestResponsesReplies(t *testing.T) {
	tests := []struct {
		name     string
		reply    wiretest.Reply
		fixture  string
		wantKind providers.ErrorKind
		check    func(t *testing.T, r providers.Response, e *providers.Error)
	}{
		{name: "success", fixture: "responses_success.json", check: func(t *testing.T, r providers.Response, _ *providers.Error) {
			if r.Text != "It is 4°C and raining in Oslo." || r.StopReason != providers.StopEndTurn || r.ResponseID != "resp_001" ||
				r.Model != "gpt-5-2025-08-07" || r.Usage.InputTokens != 1200 || r.Usage.CacheReadInputTokens != 1024 || r.Usage.TotalTokens != 1218 {
				t.Errorf("response = %+v", r)
			}
		}},
		{name: "tool call", fixture: "responses_tool_call.json", check: func(t *testing.T, r providers.Response, _ *providers.Error) {
			if r.Text != "Checking." || r.StopReason != providers.StopToolUse || len(r.ToolCalls) != 1 ||
				r.ToolCalls[0].ID != "call_9" || r.ToolCalls[0].Name != "get_weather" || string(r.ToolCalls[0].Arguments) != `{"city":"Bergen"}` {
				t.Errorf("response = %+v", r)
			}
		}},
		{name: "429 with Retry-After", fixture: "error_429.json", reply: wiretest.Reply{Status: 429, Header: map[string]string{"Retry-After": "3"}},
			wantKind: providers.KindRateLimited, check: func(t *testing.T, _ providers.Response, e *providers.Error) {
				if e.RetryAfter != 3*time.Second || e.Code != "rate_limit_exceeded" {
					t.Errorf("error = %+v", e)
				}
			}},
		{name: "429 out of quota", fixture: "error_quota.json", reply: wiretest.Reply{Status: 429}, wantKind: providers.KindQuotaExhausted},
		{name: "500", fixture: "error_500.json", reply: wiretest.Reply{Status: 500}, wantKind: providers.KindServer},
		{name: "529", fixture: "error_overloaded.json", reply: wiretest.Reply{Status: 529}, wantKind: providers.KindServer},
		{name: "503 plain text", reply: wiretest.Reply{Status: 503, ContentType: "text/plain", Body: []byte("upstream connect error")}, wantKind: providers.KindServer},
		{name: "401", fixture: "error_401.json", reply: wiretest.Reply{Status: 401}, wantKind: providers.KindAuth},
		{name: "context length", fixture: "error_context_length.json", reply: wiretest.Reply{Status: 400}, wantKind: providers.KindContextLength},
		{name: "malformed JSON", fixture: "malformed.json", wantKind: providers.KindProtocol, check: func(t *testing.T, _ providers.Response, e *providers.Error) {
			if e.Diagnostics == nil || e.Diagnostics.Stage != providers.StageDecode || !e.Diagnostics.HTTP.IsDecode {
				t.Errorf("diagnostics = %+v", e.Diagnostics)
			}
		}},
		{name: "not JSON at all", reply: wiretest.Reply{ContentType: "text/html", Body: []byte("<html></html>")}, wantKind: providers.KindProtocol},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			reply := tt.reply
			if tt.fixture != "" {
				reply.Body = wiretest.Fixture(t, tt.fixture)
			}
			srv := wiretest.NewServer(t, reply)
			resp, err := newResponses(t, srv, "").Complete(context.Background(), wiretest.Request())
			e := checkErr(t, err, tt.wantKind)
			if tt.check != nil {
				tt.check(t, resp, e)
			}
		})
	}
}

// checkErr checks err's kind (none when want is "") and that it never
// shows the API key.
func checkErr(t *testing.T, err error, want providers.ErrorKind) *providers.Error {
	t.Helper()
	if want == "" {
		if err != nil {
			t.Fatalf("Complete: %v", err)
		}
		return nil
	}
	var e *providers.Error
	if !errors.As(err, &e) || e.Kind != want {
		t.Fatalf("Complete error = %v (kind %s), want kind %s", err, providers.KindOf(err), want)
	}
	b, _ := json.Marshal(providers.FailureOf(err))
	for _, s := range []string{err.Error(), string(b)} {
		if strings.Contains(s, wiretest.APIKey) {
			t.Errorf("the API key leaks: %s", s)
		}
	}
	return e
}

func TestConnectionRefused(t *testing.T) {
	srv := wiretest.NewServer(t, wiretest.Reply{})
	p := newResponses(t, srv, "")
	srv.Close()
	_, err := p.Complete(context.Background(), wiretest.Request())
	checkErr(t, err, providers.KindConnection)
}

func TestCodexRequestGolden(t *testing.T) {
	srv := wiretest.NewServer(t, wiretest.Reply{ContentType: "text/event-stream", Body: wiretest.Fixture(t, "codex_stream.sse")})
	if _, err := newCodex(t, srv).Complete(context.Background(), wiretest.Request()); err != nil {
		t.Fatalf("Complete: %v", err)
	}
	wiretest.Golden(t, "codex_request.golden.json", srv.Body(0))
	checkResponsesBody(t, srv.Body(0), true)
}

// TestNotificationsRequestGolden: both transports send a carrier's
// notifications as a developer message, just before a message carrier and
// just after the last function_call_output of a tool-batch carrier.
func TestNotificationsRequestGolden(t *testing.T) {
	for _, tt := range []struct {
		golden string
		codex  bool
	}{
		{"responses_notifications_request.golden.json", false},
		{"codex_notifications_request.golden.json", true},
	} {
		t.Run(tt.golden, func(t *testing.T) {
			var p providers.Provider
			var srv *wiretest.Server
			if tt.codex {
				srv = wiretest.NewServer(t, wiretest.Reply{ContentType: "text/event-stream", Body: wiretest.Fixture(t, "codex_stream.sse")})
				p = newCodex(t, srv)
			} else {
				srv = wiretest.NewServer(t, wiretest.Reply{Body: wiretest.Fixture(t, "responses_success.json")})
				p = newResponses(t, srv, providers.SchemaRelaxed)
			}
			if _, err := p.Complete(context.Background(), wiretest.NotifiedRequest()); err != nil {
				t.Fatalf("Complete: %v", err)
			}
			wiretest.Golden(t, tt.golden, srv.Body(0))
			checkResponsesBody(t, srv.Body(0), tt.codex)
			checkNotificationOrder(t, srv.Body(0))
		})
	}
}

// checkNotificationOrder checks where NotifiedRequest's notifications land
// in the input: each carrier's rendered block as a developer message, the
// message carrier's right before it, the batch's right after its last
// function_call_output; the context blocks stay last.
func checkNotificationOrder(t *testing.T, raw []byte) {
	t.Helper()
	var body struct {
		Input []struct {
			Type    string `json:"type"`
			Role    string `json:"role"`
			Content string `json:"content"`
			CallID  string `json:"call_id"`
		} `json:"input"`
	}
	if err := json.Unmarshal(raw, &body); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, it := range body.Input {
		switch {
		case it.Role != "":
			got = append(got, it.Role)
		default:
			got = append(got, it.Type+" "+it.CallID)
		}
	}
	want := []string{"user", "developer", "user", "assistant", "function_call call_1", "function_call call_2",
		"function_call_output call_1", "function_call_output call_2", "developer", "developer"}
	if !slices.Equal(got, want) {
		t.Fatalf("input = %q, want %q", got, want)
	}
	if c := body.Input[1].Content; c != messages.RenderSystemNotifications(wiretest.MessageNotifications) {
		t.Errorf("developer message before msg_2 = %q, want the message carrier's notifications", c)
	}
	if !strings.Contains(body.Input[2].Content, "message msg_2") {
		t.Errorf("input[2] = %q, want the carrier msg_2 right after its notifications", body.Input[2].Content)
	}
	if c := body.Input[8].Content; c != messages.RenderSystemNotifications(wiretest.BatchNotifications) {
		t.Errorf("developer message after the batch = %q, want the batch's notifications", c)
	}
	if c := body.Input[9].Content; c != "Turn 1, round 2." {
		t.Errorf("last input = %q, want the context blocks", c)
	}
}

func TestCodexStreams(t *testing.T) {
	tests := []struct {
		name     string
		fixture  string
		reply    wiretest.Reply
		wantKind providers.ErrorKind
		check    func(t *testing.T, r providers.Response, e *providers.Error)
	}{
		{name: "output rebuilt from output_item.done", fixture: "codex_stream.sse", check: func(t *testing.T, r providers.Response, _ *providers.Error) {
			if r.Text != "Let me look." || len(r.ToolCalls) != 1 || r.ToolCalls[0].ID != "call_c1" || r.StopReason != providers.StopToolUse ||
				r.ResponseID != "resp_c1" || r.Usage.TotalTokens != 340 || r.Usage.CacheReadInputTokens != 256 {
				t.Errorf("response = %+v", r)
			}
		}},
		{name: "completed event carries the output", fixture: "codex_completed_output.sse", check: func(t *testing.T, r providers.Response, _ *providers.Error) {
			if r.Text != "Done." || r.StopReason != providers.StopEndTurn {
				t.Errorf("response = %+v", r)
			}
		}},
		{name: "response.failed classified directly", fixture: "codex_failed.sse", wantKind: providers.KindContextLength},
		{name: "response.incomplete classified directly", fixture: "codex_incomplete.sse", wantKind: providers.KindIncomplete,
			check: func(t *testing.T, _ providers.Response, e *providers.Error) {
				if e.Code != "content_filter" {
					t.Errorf("code = %q, want content_filter", e.Code)
				}
			}},
		{name: "error event", fixture: "codex_error_event.sse", wantKind: providers.KindServer},
		{name: "stream ends without a terminal event", fixture: "codex_truncated.sse", wantKind: providers.KindConnection},
		{name: "429 before the stream", fixture: "error_429.json", reply: wiretest.Reply{Status: 429, ContentType: "application/json",
			Header: map[string]string{"Retry-After": "2"}}, wantKind: providers.KindRateLimited},
		{name: "401 before the stream", fixture: "error_401.json", reply: wiretest.Reply{Status: 401, ContentType: "application/json"}, wantKind: providers.KindAuth},
		{name: "JSON instead of a stream", fixture: "responses_success.json", reply: wiretest.Reply{ContentType: "application/json"}, wantKind: providers.KindProtocol},
		{name: "malformed event data", reply: wiretest.Reply{Body: []byte("event: response.completed\ndata: {\"type\":\n\n")}, wantKind: providers.KindProtocol},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			reply := tt.reply
			if reply.ContentType == "" {
				reply.ContentType = "text/event-stream"
			}
			if tt.fixture != "" {
				reply.Body = wiretest.Fixture(t, tt.fixture)
			}
			srv := wiretest.NewServer(t, reply)
			resp, err := newCodex(t, srv).Complete(context.Background(), wiretest.Request())
			e := checkErr(t, err, tt.wantKind)
			if tt.check != nil {
				tt.check(t, resp, e)
			}
		})
	}
}

// TestCodexStall: the server sends two events and goes quiet; the
// caller's deadline ends the call as a timeout. The deadline fires for
// certain because the server never sends more.
func TestCodexStall(t *testing.T) {
	srv := wiretest.NewServer(t, wiretest.Reply{ContentType: "text/event-stream", Body: wiretest.Fixture(t, "codex_stall.sse"), Stall: true})
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	_, err := newCodex(t, srv).Complete(ctx, wiretest.Request())
	e := checkErr(t, err, providers.KindTimeout)
	if e.Diagnostics == nil || e.Diagnostics.HTTP == nil || !e.Diagnostics.HTTP.IsTimeout {
		t.Errorf("diagnostics = %+v", e.Diagnostics)
	}
}

func TestWrongTransportFailsClosed(t *testing.T) {
	ep := providers.Endpoint{Ref: providers.ModelRef{Provider: "openai", Model: "gpt-5"}, Transport: providers.TransportAnthropic}
	if _, err := openai.NewResponses(ep); providers.KindOf(err) != providers.KindUnsupported {
		t.Errorf("NewResponses(anthropic transport) = %v, want unsupported_transport", err)
	}
}
