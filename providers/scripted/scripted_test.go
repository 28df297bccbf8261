package scripted_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/providers"
	"github.com/holon-actors/holon-actors/providers/scripted"
)

func conv(assistantRounds int, last string) []providers.Item {
	items := []providers.Item{{Kind: providers.ItemMessage, Text: last}}
	for range assistantRounds {
		items = append(items, providers.Item{Kind: providers.ItemAssistant, Text: "x"})
	}
	return items
}

func TestPlaysStepsByRound(t *testing.T) {
	s, err := scripted.Parse([]byte(`{"steps": [
		{"text": "", "tool_calls": [{"name": "Sleep", "arguments": {"duration_ms": 5}}]},
		{"text": "Done."},
		{"error": {"kind": "rate_limited", "message": "slow down"}}]}`))
	if err != nil {
		t.Fatal(err)
	}
	p := scripted.New(s)
	ctx := context.Background()
	r, err := p.Complete(ctx, providers.Request{Conversation: conv(0, "hi")})
	if err != nil || len(r.ToolCalls) != 1 || r.ToolCalls[0].Name != "Sleep" || r.ToolCalls[0].ID == "" || r.StopReason != "tool_use" {
		t.Fatalf("round 0 = %+v, %v", r, err)
	}
	// The same conversation gets the same answer (restart-safe).
	again, _ := p.Complete(ctx, providers.Request{Conversation: conv(0, "hi")})
	if again.ToolCalls[0].ID != r.ToolCalls[0].ID {
		t.Fatalf("replayed round 0 answered differently: %+v", again)
	}
	if r, err = p.Complete(ctx, providers.Request{Conversation: conv(1, "hi")}); err != nil || r.Text != "Done." {
		t.Fatalf("round 1 = %+v, %v", r, err)
	}
	_, err = p.Complete(ctx, providers.Request{Conversation: conv(2, "hi")})
	if providers.KindOf(err) != providers.KindRateLimited {
		t.Fatalf("round 2 error = %v, want rate_limited", err)
	}
	_, err = p.Complete(ctx, providers.Request{Conversation: conv(3, "hi")})
	if err == nil || !strings.Contains(err.Error(), "script exhausted") {
		t.Fatalf("round 3 = %v, want script exhausted", err)
	}
}

func TestThenModes(t *testing.T) {
	ctx := context.Background()
	echo, _ := scripted.Parse([]byte(`{"steps": [], "then": "echo"}`))
	r, err := scripted.New(echo).Complete(ctx, providers.Request{Conversation: conv(4, "ping")})
	if err != nil || r.Text != "echo: ping" {
		t.Fatalf("echo = %+v, %v", r, err)
	}
	rep, _ := scripted.Parse([]byte(`{"steps": [{"text": "again"}], "then": "repeat"}`))
	if r, err = scripted.New(rep).Complete(ctx, providers.Request{Conversation: conv(9, "x")}); err != nil || r.Text != "again" {
		t.Fatalf("repeat = %+v, %v", r, err)
	}
}

func TestBadScripts(t *testing.T) {
	for name, src := range map[string]string{
		"not json":      `steps:`,
		"unknown field": `{"steps": [{"txt": "x"}]}`,
		"no steps":      `{"steps": []}`,
		"bad then":      `{"steps": [{"text": "x"}], "then": "loop"}`,
		"both":          `{"steps": [{"text": "x", "error": {"kind": "server", "message": "m"}}]}`,
		"no tool name":  `{"steps": [{"tool_calls": [{"arguments": {}}]}]}`,
		"error no kind": `{"steps": [{"error": {"message": "m"}}]}`,
		"role colon":    `{"steps": [{"text": "x"}], "roles": {"a:b": {"steps": [{"text": "y"}]}}}`,
		"role empty":    `{"steps": [{"text": "x"}], "roles": {"w": {"steps": []}}}`,
		"nested roles":  `{"steps": [{"text": "x"}], "roles": {"w": {"steps": [{"text": "y"}], "roles": {"v": {"steps": [{"text": "z"}]}}}}}`,
	} {
		if _, err := scripted.Parse([]byte(src)); err == nil {
			t.Errorf("%s: Parse accepted %s", name, src)
		}
	}
	path := filepath.Join(t.TempDir(), "s.json")
	if err := os.WriteFile(path, []byte(`{"steps": [{"tool_calls": [{"name": ""}]}]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := scripted.Load(path); err == nil || !strings.Contains(err.Error(), "steps[0].tool_calls[0].name") {
		t.Fatalf("Load = %v, want the bad field named", err)
	}
}

// TestIgnoresNotifications: carriers' notifications change neither the
// round count nor what echo answers.
func TestIgnoresNotifications(t *testing.T) {
	ns := []messages.SystemNotification{{Kind: "tool.failed", Level: messages.LevelCritical, Message: "exit 101"}}
	req := providers.Request{Conversation: []providers.Item{
		{Kind: providers.ItemMessage, Text: "ping", Notifications: ns},
		{Kind: providers.ItemAssistant, ToolCalls: []messages.ToolCall{{ID: "c1", Name: "Sleep"}, {ID: "c2", Name: "Sleep"}}},
		{Kind: providers.ItemToolResult, CallID: "c1", Text: "ok"},
		{Kind: providers.ItemToolResult, CallID: "c2", Text: "ok", Notifications: ns},
	}}
	s, err := scripted.Parse([]byte(`{"steps": [{"text": "first"}], "then": "echo"}`))
	if err != nil {
		t.Fatal(err)
	}
	r, err := scripted.New(s).Complete(context.Background(), req)
	if err != nil || r.Text != "echo: ping" || r.ResponseID != "scripted_1" {
		t.Fatalf("Complete = %+v, %v; want round 1 echoing ping", r, err)
	}
}

// TestRoles: an agent whose first message names a role plays that role's
// script by its own rounds; any other plays the top-level script.
func TestRoles(t *testing.T) {
	s, err := scripted.Parse([]byte(`{"steps": [{"text": "parent"}], "roles": {"worker": {"steps": [{"text": "42"}, {"text": "done"}]}}}`))
	if err != nil {
		t.Fatal(err)
	}
	p, ctx := scripted.New(s), context.Background()
	for _, c := range []struct {
		conv []providers.Item
		want string
	}{
		{conv(0, "worker: count"), "42"},
		{conv(1, "worker: count"), "done"},
		{conv(0, "hello"), "parent"},
		{conv(0, "stranger: hi"), "parent"},
	} {
		if r, err := p.Complete(ctx, providers.Request{Conversation: c.conv}); err != nil || r.Text != c.want {
			t.Errorf("%q round %d = %q, %v; want %q", c.conv[0].Text, len(c.conv)-1, r.Text, err, c.want)
		}
	}
}
