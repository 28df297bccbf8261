// Package wiretest holds what the transport tests share: a rich
// provider-neutral request, golden files with -update, and fake vendor
// servers that replay fixtures from testdata. It is imported only by
// _test.go files of providers/<vendor>.
package wiretest

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/providers"
)

var update = flag.Bool("update", false, "rewrite golden request bodies in testdata")

// APIKey is the canary credential every transport test uses; it must never
// appear in an error, a timeline or anything marshalled.
const APIKey = "sk-canary-0123456789abcdef"

// Request returns a provider round exercising every item kind: provenance
// labels, an assistant round with a tool call, an ok and an error tool
// result, a notification, cache breakpoints, context blocks and tools.
func Request() providers.Request {
	op := messages.Origin{Kind: messages.OriginOperator, ActorID: "alice"}
	web := messages.Origin{Kind: messages.OriginWebhook, Source: "github"}
	return providers.Request{
		AgentID: "agent_1", TurnID: "turn_1", Round: 2,
		Frame: providers.PromptFrame{
			SystemPrompt:  "You are a careful assistant.",
			SystemBlocks:  []providers.Block{{Text: "Identity: agent_1.", CacheBreakpoint: true}},
			ContextBlocks: []providers.Block{{Text: "Turn 1, round 2."}},
			Cache:         &providers.PromptCache{AgentID: "agent_1", PromptCacheKey: "pck_abc123", ContextFingerprint: "fp_1"},
		},
		Conversation: []providers.Item{
			{Kind: providers.ItemMessage, MessageID: "msg_1", Origin: &op, Authority: messages.AuthorityOperatorInstruction, Text: "What is the weather in Oslo?"},
			{Kind: providers.ItemMessage, MessageID: "msg_2", Origin: &web, Authority: messages.AuthorityIntegrationSignal, Text: `{"event":"push"}`},
			{Kind: providers.ItemAssistant, Text: "Checking.", ToolCalls: []messages.ToolCall{
				{ID: "call_1", Name: "get_weather", Arguments: json.RawMessage(`{"city":"Oslo"}`)},
				{ID: "call_2", Name: "get_time", Arguments: json.RawMessage(`{}`)},
			}},
			{Kind: providers.ItemToolResult, CallID: "call_1", ToolName: "get_weather", Text: "ok: 4°C, rain"},
			{Kind: providers.ItemToolResult, CallID: "call_2", ToolName: "get_time", Text: "error: clock unavailable", IsError: true},
			{Kind: providers.ItemNotification, Text: "Task task_9 finished."},
		},
		Tools: []providers.ToolSpec{
			{Name: "get_weather", Description: "Current weather for a city.", Parameters: json.RawMessage(
				`{"type":"object","properties":{"city":{"type":"string"},"unit":{"type":"string","enum":["c","f"]}},"required":["city"]}`)},
			{Name: "get_time", Description: "The current time.", Parameters: json.RawMessage(`{"type":"object","properties":{}}`)},
		},
	}
}

// MessageNotifications and BatchNotifications are what the two carriers of
// NotifiedRequest hold; each mixes levels, so the rendered block reorders
// them (most severe first).
var (
	MessageNotifications = []messages.SystemNotification{
		{Kind: "tool.stopped", Level: messages.LevelInfo, Message: "Tool `cargo_check` (handle `h_3`) has stopped with result available."},
		{Kind: "tool.failed", Level: messages.LevelCritical, Message: "Tool `cargo_check` failed with exit code 101."},
	}
	BatchNotifications = []messages.SystemNotification{
		{Kind: "tool.waiting", Level: messages.LevelWarning, Message: "Tool `git` (handle `h_1`) is waiting for input."},
		{Kind: "mcp.disconnected", Level: messages.LevelError, Message: "MCP server `github` has disconnected."},
	}
)

// NotifiedRequest returns a provider round with both notification
// carriers: the second of two messages carries MessageNotifications, and
// the last of a two-result tool batch carries BatchNotifications. It has
// Request's frame and tools.
func NotifiedRequest() providers.Request {
	req := Request()
	op := messages.Origin{Kind: messages.OriginOperator, ActorID: "alice"}
	web := messages.Origin{Kind: messages.OriginWebhook, Source: "github"}
	req.Conversation = []providers.Item{
		{Kind: providers.ItemMessage, MessageID: "msg_1", Origin: &web, Authority: messages.AuthorityIntegrationSignal, Text: `{"event":"push"}`},
		{Kind: providers.ItemMessage, MessageID: "msg_2", Origin: &op, Authority: messages.AuthorityOperatorInstruction,
			Text: "What is the weather in Oslo?", Notifications: MessageNotifications},
		{Kind: providers.ItemAssistant, Text: "Checking.", ToolCalls: []messages.ToolCall{
			{ID: "call_1", Name: "get_weather", Arguments: json.RawMessage(`{"city":"Oslo"}`)},
			{ID: "call_2", Name: "get_time", Arguments: json.RawMessage(`{}`)},
		}},
		{Kind: providers.ItemToolResult, CallID: "call_1", ToolName: "get_weather", Text: "ok: 4°C, rain"},
		{Kind: providers.ItemToolResult, CallID: "call_2", ToolName: "get_time", Text: "ok: 14:05", Notifications: BatchNotifications},
	}
	return req
}

// Golden compares got, a JSON body, with testdata/<name> after indenting
// it; with -update it rewrites the file.
func Golden(t testing.TB, name string, got []byte) {
	t.Helper()
	var buf bytes.Buffer
	if err := json.Indent(&buf, got, "", "  "); err != nil {
		t.Fatalf("golden %s: body is not JSON: %v\n%s", name, err, got)
	}
	buf.WriteByte('\n')
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("read golden (run with -update to create it): %v", err)
	}
	if !bytes.Equal(buf.Bytes(), want) {
		t.Errorf("request body differs from %s (run with -update to accept):\n%s", path, buf.Bytes())
	}
}

// Fixture reads testdata/<name>.
func Fixture(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// Reply is one scripted HTTP answer of a Server.
type Reply struct {
	Status      int
	Header      map[string]string
	ContentType string // default application/json
	Body        []byte
	// Stall, when set, writes Body, flushes, then blocks until the
	// request's context ends: a stream that stalls mid-response.
	Stall bool
}

// Server is a fake vendor endpoint answering every request with Reply and
// recording what it received.
type Server struct {
	*httptest.Server
	replies []Reply // the i-th request gets replies[i]; the last repeats

	mu       sync.Mutex
	bodies   [][]byte
	headers  []http.Header
	paths    []string
	released chan struct{} // closed by Close: unblocks stalled handlers
}

// NewServer starts a server that answers every request with r; t's
// cleanup closes it.
func NewServer(t testing.TB, r Reply) *Server { return NewScriptServer(t, r) }

// NewScriptServer starts a server whose i-th request gets replies[i], the
// last reply repeating.
func NewScriptServer(t testing.TB, replies ...Reply) *Server {
	s := &Server{replies: replies, released: make(chan struct{})}
	s.Server = httptest.NewServer(http.HandlerFunc(s.handle))
	t.Cleanup(func() {
		close(s.released)
		s.Server.Close()
	})
	return s
}

func (s *Server) handle(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	s.mu.Lock()
	s.bodies = append(s.bodies, body)
	s.headers = append(s.headers, r.Header.Clone())
	s.paths = append(s.paths, r.URL.Path)
	reply := s.replies[min(len(s.bodies), len(s.replies))-1]
	s.mu.Unlock()
	ct := reply.ContentType
	if ct == "" {
		ct = "application/json"
	}
	w.Header().Set("Content-Type", ct)
	for k, v := range reply.Header {
		w.Header().Set(k, v)
	}
	status := reply.Status
	if status == 0 {
		status = http.StatusOK
	}
	w.WriteHeader(status)
	_, _ = w.Write(reply.Body)
	if reply.Stall {
		w.(http.Flusher).Flush()
		select {
		case <-r.Context().Done():
		case <-s.released:
		}
	}
}

// Body returns the i-th request body received.
func (s *Server) Body(i int) []byte {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.bodies[i]
}

// Header returns the i-th request's headers.
func (s *Server) Header(i int) http.Header {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.headers[i]
}

// Path returns the i-th request's URL path.
func (s *Server) Path(i int) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.paths[i]
}

// Requests returns how many requests arrived.
func (s *Server) Requests() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.bodies)
}

// BenchRound compares one round through provider p with a bare net/http
// round trip carrying the body p sent to srv, with the same headers, its
// reply decoded into a generic value (the least a client does with it):
// the sub-benchmarks transport and bare_http.
func BenchRound(b *testing.B, srv *Server, p providers.Provider) {
	ctx := context.Background()
	req := Request()
	if _, err := p.Complete(ctx, req); err != nil {
		b.Fatal(err)
	}
	body, header, url := srv.Body(0), srv.Header(0).Clone(), srv.URL+srv.Path(0)
	b.Run("transport", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := p.Complete(ctx, req); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("bare_http", func(b *testing.B) {
		b.ReportAllocs()
		client := srv.Client()
		for b.Loop() {
			r, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
			if err != nil {
				b.Fatal(err)
			}
			r.Header = header
			res, err := client.Do(r)
			if err != nil {
				b.Fatal(err)
			}
			var v map[string]any
			_ = json.NewDecoder(res.Body).Decode(&v)
			_ = res.Body.Close()
		}
	})
}
