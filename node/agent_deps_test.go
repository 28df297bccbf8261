package node_test

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/rs/zerolog"

	"github.com/holon-actors/holon-actors/actors"
	"github.com/holon-actors/holon-actors/actors/agentstate"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/node"
	"github.com/holon-actors/holon-actors/persistence"
	"github.com/holon-actors/holon-actors/providers/catalog"
	"github.com/holon-actors/holon-actors/secrets"
)

// TestAgentOptionsDeps: the model configuration's agent settings reach
// every agent (the settings `once` once lacked), the model keys stay out
// of the commands' environment, and the flags' policies pass through.
func TestAgentOptionsDeps(t *testing.T) {
	t.Setenv("ANTHROPIC_API_KEY", "sk-ant-test-key")
	cfg := catalog.Config{Model: "anthropic/claude-sonnet-4-5", TokenBudget: 5000, LoopBreakerRepeats: 3,
		SystemNotifications: messages.NotificationFilter{Kinds: map[string]map[string]bool{"task": {"completed": false}}},
		CommandPolicy:       messages.CommandPolicies{Default: &messages.CommandPolicy{Allow: []string{"ls"}}}}
	prov, err := node.NewModelProvider(cfg, "", os.Getenv)
	if err != nil {
		t.Fatal(err)
	}
	store := persistence.NewMemStore()
	reg := secrets.NewRegistry()
	opts := node.AgentOptions{Model: cfg, SystemPrompt: "be brief", DefaultAgent: "main", Home: "/h", Workspace: "/w",
		Worktrees: "/wt", ExtraEnv: []string{"HOLON_TEST_MARK=1"}, Secrets: reg, NotifyTool: true,
		WorkItemReminder: actors.WorkItemReminder{Rounds: 8}, Compaction: agentstate.Compaction{TriggerTokens: 10, KeepTokens: 5},
		ModelRetry: actors.DefaultModelRetry()}
	d, err := opts.Deps(store, prov, zerolog.Nop())
	if err != nil {
		t.Fatal(err)
	}
	if d.DefaultTokenBudget != 5000 || d.LoopBreakerRepeats != 3 {
		t.Errorf("DefaultTokenBudget, LoopBreakerRepeats = %d, %d, want the config's 5000, 3", d.DefaultTokenBudget, d.LoopBreakerRepeats)
	}
	if !reflect.DeepEqual(d.NotificationFilter, cfg.SystemNotifications) || !reflect.DeepEqual(d.CommandPolicies, cfg.CommandPolicy) {
		t.Errorf("NotificationFilter, CommandPolicies = %+v, %+v, want the config's", d.NotificationFilter, d.CommandPolicies)
	}
	if d.CheckModel == nil || d.Provider != prov || d.Store != store || d.Secrets != reg || d.Clock == nil || d.Tools == nil {
		t.Errorf("deps miss the model check, provider, store, secrets, clock or tools: %+v", d)
	}
	if d.SystemPrompt != "be brief" || d.DefaultAgentID != "main" || !d.NotifyOperatorTool ||
		d.WorkItemReminder != opts.WorkItemReminder || d.Compaction != opts.Compaction || d.ModelRetry.Horizon != opts.ModelRetry.Horizon {
		t.Errorf("deps lost a flag: %+v", d)
	}
	te := d.ToolEnv
	if te.Home != "/h" || te.Workspace != "/w" || te.Worktrees != "/wt" {
		t.Errorf("ToolEnv roots = %q %q %q", te.Home, te.Workspace, te.Worktrees)
	}
	if !slices.Contains(te.Env, "HOLON_TEST_MARK=1") {
		t.Errorf("commands' environment lacks ExtraEnv")
	}
	for _, kv := range te.Env {
		if strings.HasPrefix(kv, "ANTHROPIC_API_KEY=") {
			t.Errorf("commands' environment carries the model key")
		}
	}
}

// TestNewModelProviderRefusesBadConfig: a configuration that cannot work
// is refused before anything starts, as a configuration error.
func TestNewModelProviderRefusesBadConfig(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(bad, []byte(`{"steps":`), 0o600); err != nil {
		t.Fatal(err)
	}
	none := func(string) string { return "" }
	tests := []struct {
		name   string
		cfg    catalog.Config
		script string
		want   string
	}{
		{"fallback without primary", catalog.Config{Fallback: []string{"openai/gpt-5"}}, "", "fallback models without a primary"},
		{"scripted without script", catalog.Config{Model: "scripted"}, "", "--model scripted needs --script"},
		{"unreadable script", catalog.Config{Model: "scripted"}, filepath.Join(dir, "missing.json"), "missing.json"},
		{"broken script", catalog.Config{Model: "scripted"}, bad, "bad.json"},
		{"bad model ref", catalog.Config{Model: "nosuchvendor/model"}, "", "nosuchvendor"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := node.NewModelProvider(tt.cfg, tt.script, none)
			if !errorsIsConfig(err) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("NewModelProvider = %v, want ErrConfig saying %q", err, tt.want)
			}
		})
	}
	p, err := node.NewModelProvider(catalog.Config{}, "", none)
	if err != nil || p.Name() != "unconfigured" {
		t.Errorf("NewModelProvider(no model) = %v, %v; want the unconfigured provider", p, err)
	}
}

func errorsIsConfig(err error) bool { return errors.Is(err, node.ErrConfig) }
