package providers_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/holon-actors/holon-actors/providers"
)

func TestParseModelRef(t *testing.T) {
	tests := []struct {
		in      string
		want    providers.ModelRef
		wantErr bool
	}{
		{"openai/gpt-5", providers.ModelRef{Provider: "openai", Model: "gpt-5"}, false},
		{"openai-codex/gpt-5-codex", providers.ModelRef{Provider: "openai-codex", Model: "gpt-5-codex"}, false},
		{"openrouter/meta-llama/llama-3-8b", providers.ModelRef{Provider: "openrouter", Model: "meta-llama/llama-3-8b"}, false},
		{"gpt-5", providers.ModelRef{}, true},
		{"/gpt-5", providers.ModelRef{}, true},
		{"openai/", providers.ModelRef{}, true},
	}
	for _, tt := range tests {
		got, err := providers.ParseModelRef(tt.in)
		if got != tt.want || (err != nil) != tt.wantErr || (err != nil && !errors.Is(err, providers.ErrBadModelRef)) {
			t.Errorf("ParseModelRef(%q) = %v, %v; want %v, error %v", tt.in, got, err, tt.want, tt.wantErr)
		}
	}
}

func TestEndpointResolve(t *testing.T) {
	tests := []struct {
		name      string
		ep        providers.Endpoint
		transport providers.Transport
		kind      providers.ErrorKind
	}{
		{"openai default", providers.Endpoint{Ref: providers.ModelRef{Provider: "openai", Model: "gpt-5"}}, providers.TransportResponses, ""},
		{"codex default", providers.Endpoint{Ref: providers.ModelRef{Provider: "openai-codex", Model: "gpt-5-codex"}}, providers.TransportCodex, ""},
		{"anthropic default", providers.Endpoint{Ref: providers.ModelRef{Provider: "anthropic", Model: "claude-sonnet-4-5"}}, providers.TransportAnthropic, ""},
		{"named compatible endpoint", providers.Endpoint{Ref: providers.ModelRef{Provider: "ollama", Model: "llama3.2"},
			Transport: providers.TransportChat, BaseURL: "http://127.0.0.1:11434/v1/"}, providers.TransportChat, ""},
		{"unknown provider fails closed", providers.Endpoint{Ref: providers.ModelRef{Provider: "bedrock", Model: "x"}}, "", providers.KindUnsupported},
		{"unknown transport fails closed", providers.Endpoint{Ref: providers.ModelRef{Provider: "openai", Model: "x"}, Transport: "grpc"}, "", providers.KindUnsupported},
		{"compatible without base url", providers.Endpoint{Ref: providers.ModelRef{Provider: "vllm", Model: "x"}, Transport: providers.TransportChat}, "", providers.KindNotConfigured},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.ep.Resolve()
			if tt.kind != "" {
				if providers.KindOf(err) != tt.kind {
					t.Fatalf("Resolve() = %v, want %s", err, tt.kind)
				}
				return
			}
			if err != nil || got.Transport != tt.transport || got.BaseURL == "" {
				t.Errorf("Resolve() = %+v, %v; want transport %s and a base URL", got, err, tt.transport)
			}
		})
	}
}

func TestSecretNeverPrints(t *testing.T) {
	const key = "sk-canary-7f3a9c"
	ep := providers.Endpoint{Ref: providers.ModelRef{Provider: "openai", Model: "gpt-5"}, APIKey: key}
	b, _ := json.Marshal(ep)
	outputs := []string{string(b), fmt.Sprint(ep), fmt.Sprintf("%v %+v %#v %s %q %x", ep, ep, ep, ep.APIKey, ep.APIKey, ep.APIKey)}
	for _, out := range outputs {
		if strings.Contains(out, key) {
			t.Errorf("output leaks the key: %s", out)
		}
	}
	if ep.APIKey.Reveal() != key || !ep.APIKey.Present() {
		t.Error("Reveal or Present is wrong")
	}
}

// TestSharedClientKeepsConnections: two waves of concurrent requests from
// endpoints without a client of their own: the second wave reuses the
// first wave's connections (net/http's default keeps only 2 per host).
func TestSharedClientKeepsConnections(t *testing.T) {
	const n = 16
	var conns atomic.Int32
	arrived := make(chan struct{}, n)
	release := make(chan struct{})
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		arrived <- struct{}{}
		<-release
		_, _ = w.Write([]byte("{}"))
	}))
	srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			conns.Add(1)
		}
	}
	srv.Start()
	defer srv.Close()
	c := providers.Endpoint{}.Client()
	if c != providers.SharedClient() {
		t.Fatal("an endpoint without a client does not use the shared one")
	}
	wave := func() {
		var wg sync.WaitGroup
		for range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				res, err := c.Get(srv.URL)
				if err != nil {
					t.Error(err)
					return
				}
				_, _ = io.Copy(io.Discard, res.Body)
				_ = res.Body.Close()
			}()
		}
		for range n {
			<-arrived // all n in flight at once, on n connections
		}
		for range n {
			release <- struct{}{}
		}
		wg.Wait()
	}
	wave()
	first := conns.Load()
	wave()
	if first != n || conns.Load() != first {
		t.Errorf("connections: %d for the first wave of %d, %d after the second; want no new ones", first, n, conns.Load())
	}
}

func TestRounds(t *testing.T) {
	req := providers.Request{Conversation: []providers.Item{
		{Kind: providers.ItemMessage}, {Kind: providers.ItemAssistant}, {Kind: providers.ItemToolResult}, {Kind: providers.ItemAssistant},
	}}
	if got := providers.Rounds(req); got != 2 {
		t.Errorf("Rounds = %d, want 2", got)
	}
	req.CompactedRounds = 5
	if got := providers.Rounds(req); got != 7 {
		t.Errorf("Rounds with 5 compacted = %d, want 7", got)
	}
}
