package catalog_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/holon-actors/holon-actors/providers"
	"github.com/holon-actors/holon-actors/providers/catalog"
)

func env(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

func TestConfigEndpoints(t *testing.T) {
	c := catalog.Config{Model: "anthropic/claude-sonnet-4-5", Fallback: []string{"openai/gpt-5", "ollama/llama3.2"},
		Providers: map[string]catalog.ProviderConfig{"ollama": {BaseURL: "http://localhost:11434/v1"}}}
	eps, err := c.Endpoints(env(map[string]string{"ANTHROPIC_API_KEY": "a-key", "OPENAI_API_KEY": "o-key"}))
	if err != nil {
		t.Fatal(err)
	}
	if len(eps) != 3 || eps[0].Ref.String() != "anthropic/claude-sonnet-4-5" || eps[0].APIKey.Reveal() != "a-key" ||
		eps[1].APIKey.Reveal() != "o-key" || eps[2].Transport != providers.TransportChat || eps[2].APIKey.Present() {
		t.Fatalf("Endpoints = %+v", eps)
	}
	// The environment overrides the file's base URL.
	eps, err = catalog.Config{Model: "ollama/qwen3"}.Endpoints(env(map[string]string{"HOLON_OLLAMA_BASE_URL": "http://gpu:11434/v1"}))
	if err != nil || eps[0].BaseURL != "http://gpu:11434/v1" {
		t.Fatalf("env base URL: %+v, %v", eps, err)
	}
}

func TestConfigErrorsSayWhatToSet(t *testing.T) {
	for cfg, want := range map[string]string{
		"openai/gpt-5":     "OPENAI_API_KEY",
		"anthropic/claude": "ANTHROPIC_API_KEY",
		"ollama/llama3.2":  "HOLON_OLLAMA_BASE_URL",
		"gpt-5":            "provider",
	} {
		_, err := catalog.Config{Model: cfg}.Endpoints(env(nil))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("model %s: error %v, want it to name %s", cfg, err, want)
		}
	}
}

func TestLoadConfig(t *testing.T) {
	dir := t.TempDir()
	if c, err := catalog.LoadConfig(filepath.Join(dir, "missing.json")); err != nil || c.Model != "" {
		t.Fatalf("missing file = %+v, %v", c, err)
	}
	path := filepath.Join(dir, "config.json")
	_ = os.WriteFile(path, []byte(`{"model": "openai/gpt-5", "providers": {"vllm": {"base_url": "http://h:8000/v1"}}}`), 0o600)
	if c, err := catalog.LoadConfig(path); err != nil || c.Model != "openai/gpt-5" || c.Providers["vllm"].BaseURL == "" {
		t.Fatalf("LoadConfig = %+v, %v", c, err)
	}
	_ = os.WriteFile(path, []byte(`{"model": "openai/gpt-5", "system_notifications": {"kinds": {"mcp": {"enable": false}, "tool": {"waiting": false}}}}`), 0o600)
	c, err := catalog.LoadConfig(path)
	if err != nil || c.SystemNotifications.Allows("mcp.disconnected") || c.SystemNotifications.Allows("tool.waiting") ||
		!c.SystemNotifications.Allows("tool.stopped") {
		t.Fatalf("system_notifications filter = %+v, %v", c.SystemNotifications, err)
	}
	_ = os.WriteFile(path, []byte(`{"model": "openai/gpt-5", "api_key": "sk-oops"}`), 0o600)
	if _, err := catalog.LoadConfig(path); err == nil {
		t.Fatal("an unknown key (a key in the file!) was accepted")
	}
}

func TestConfigKeyEnvsAndBaseURLs(t *testing.T) {
	c := catalog.Config{Model: "gateway/m", Fallback: []string{"anthropic/claude-sonnet-4-5"},
		Providers: map[string]catalog.ProviderConfig{"gateway": {BaseURL: "http://gw/v1?key=k", APIKeyEnv: "MY_GATEWAY_KEY"}}}
	if got, want := strings.Join(c.KeyEnvs(), ","), "MY_GATEWAY_KEY,HOLON_GATEWAY_API_KEY,ANTHROPIC_API_KEY"; got != want {
		t.Errorf("KeyEnvs = %s, want %s", got, want)
	}
	got := c.BaseURLs(env(map[string]string{"HOLON_ANTHROPIC_BASE_URL": "http://proxy/?token=t"}))
	if strings.Join(got, " ") != "http://gw/v1?key=k http://proxy/?token=t" {
		t.Errorf("BaseURLs = %q", got)
	}
}

func TestLoadConfigRetention(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config.json")
	_ = os.WriteFile(path, []byte(`{"retention": {"default": {"mode": "archive", "keep_events": 5000, "max_age": "72h"}, "agents": {"audit": {"mode": "keep"}}}}`), 0o600)
	c, err := catalog.LoadConfig(path)
	if err != nil || c.Retention.For("audit").Mode != "keep" || c.Retention.For("x").KeepEvents != 5000 || c.Retention.For("x").MaxAge.Hours() != 72 {
		t.Fatalf("LoadConfig retention = %+v, %v", c.Retention, err)
	}
	_ = os.WriteFile(path, []byte(`{"retention": {"agents": {"audit": {"mode": "forever"}}}}`), 0o600)
	if _, err := catalog.LoadConfig(path); err == nil || !strings.Contains(err.Error(), `retention.agents.audit: invalid retention policy: mode "forever" must be archive, drop or keep`) {
		t.Fatalf("a bad retention mode: %v", err)
	}
}
