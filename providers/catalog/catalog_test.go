package catalog_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"
	"github.com/rs/zerolog"

	"github.com/holon-actors/holon-actors/providers"
	"github.com/holon-actors/holon-actors/providers/catalog"
	"github.com/holon-actors/holon-actors/providers/internal/wiretest"
)

func TestOpen(t *testing.T) {
	tests := []struct {
		ref, baseURL string
		wantName     string
		wantCap      providers.PromptCapability
		wantKind     providers.ErrorKind
	}{
		{"openai/gpt-5", "", "openai/gpt-5", providers.CapPromptCacheKey, ""},
		{"openai-codex/gpt-5-codex", "", "openai-codex/gpt-5-codex", providers.CapPromptCacheKey, ""},
		{"anthropic/claude-sonnet-4-5", "", "anthropic/claude-sonnet-4-5", providers.CapPromptCacheBlocks, ""},
		{"ollama/llama3.2", "http://127.0.0.1:11434/v1/", "ollama/llama3.2", providers.CapFullRequestOnly, ""},
		{"ollama/llama3.2", "", "", "", providers.KindUnsupported},
		{"gpt-5", "", "", "", providers.KindProviderUnknown},
	}
	for _, tt := range tests {
		p, err := catalog.Open(tt.ref, tt.baseURL, "sk-x", http.DefaultClient)
		if tt.wantName != "" {
			if err != nil || p.Name() != tt.wantName {
				t.Errorf("Open(%q) = %v, %v; want %s", tt.ref, p, err, tt.wantName)
			} else if caps := providers.CapabilitiesOf(p); len(caps) == 0 || caps[0] != tt.wantCap {
				t.Errorf("CapabilitiesOf(%s) = %v, want %s first", tt.ref, caps, tt.wantCap)
			}
			continue
		}
		if err == nil || providers.KindOf(err) != tt.wantKind {
			t.Errorf("Open(%q) error = %v, want kind %s", tt.ref, err, tt.wantKind)
		}
	}
}

// policy is the default policy without an attempt timeout: complete()
// advances the clock whenever a timer waits, which would fire it.
func policy() providers.RetryPolicy {
	p := providers.DefaultRetryPolicy()
	p.AttemptTimeout = 0
	return p
}

// complete runs ch.Complete and advances the fake clock through every
// backoff until it returns.
func complete(t *testing.T, ch *providers.Chain, clock *clockwork.FakeClock) (providers.Response, error) {
	t.Helper()
	return completeCtx(t, context.Background(), ch, clock)
}

func completeCtx(t *testing.T, ctx context.Context, ch *providers.Chain, clock *clockwork.FakeClock) (providers.Response, error) {
	t.Helper()
	type result struct {
		resp providers.Response
		err  error
	}
	done := make(chan result, 1)
	waitCtx, cancel := context.WithCancel(context.Background())
	go func() {
		resp, err := ch.Complete(ctx, wiretest.Request())
		done <- result{resp, err}
		cancel()
	}()
	for clock.BlockUntilContext(waitCtx, 1) == nil {
		clock.Advance(time.Minute)
	}
	r := <-done
	return r.resp, r.err
}

// TestFallbackAcrossTransports: OpenAI answers 500 three times, an
// unsupported candidate is rejected, and Anthropic answers. The timeline
// shows all five attempts, and nothing marshalled holds the API key.
func TestFallbackAcrossTransports(t *testing.T) {
	failing := wiretest.NewServer(t, wiretest.Reply{Status: 500, Body: []byte(`{"error":{"message":"boom ` + wiretest.APIKey + `","type":"server_error"}}`)})
	ok := wiretest.NewServer(t, wiretest.Reply{Body: []byte(`{"id":"msg_1","type":"message","role":"assistant","model":"claude-sonnet-4-5",
		"content":[{"type":"text","text":"hello"}],"stop_reason":"end_turn","usage":{"input_tokens":3,"output_tokens":1}}`)})
	eps := []providers.Endpoint{
		{Ref: providers.ModelRef{Provider: "openai", Model: "gpt-5"}, BaseURL: failing.URL + "/v1/", APIKey: wiretest.APIKey, HTTPClient: failing.Client()},
		{Ref: providers.ModelRef{Provider: "bedrock", Model: "claude"}, APIKey: wiretest.APIKey},
		{Ref: providers.ModelRef{Provider: "anthropic", Model: "claude-sonnet-4-5"}, BaseURL: ok.URL, APIKey: wiretest.APIKey, HTTPClient: ok.Client()},
	}
	clock := clockwork.NewFakeClock()
	ch, err := catalog.Chain(policy(), eps, providers.NewBreakerSet(providers.DefaultBreakerConfig(), clock), providers.WithClock(clock))
	if err != nil {
		t.Fatalf("Chain: %v", err)
	}
	resp, err := complete(t, ch, clock)
	if err != nil {
		t.Fatalf("Complete: %v", err)
	}
	tl := resp.Timeline
	var got []string
	for _, a := range tl.Attempts {
		got = append(got, fmt.Sprintf("%s#%d:%s:%s", a.ModelRef, a.Attempt, a.FailureKind, a.Outcome))
	}
	want := []string{
		"openai/gpt-5#1:server:retrying", "openai/gpt-5#2:server:retrying", "openai/gpt-5#3:server:retries_exhausted",
		"bedrock/claude#1:unsupported_transport:fail_fast_aborted",
		"anthropic/claude-sonnet-4-5#1::succeeded",
	}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("timeline =\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if tl.WinningModelRef != "anthropic/claude-sonnet-4-5" || resp.Text != "hello" || failing.Requests() != 3 {
		t.Errorf("winner %s, text %q, openai requests %d", tl.WinningModelRef, resp.Text, failing.Requests())
	}
	if d := tl.Attempts[0].TransportDiagnostics; d == nil || d.Status != 500 || d.URL != failing.URL+"/v1/responses" {
		t.Errorf("diagnostics = %+v", d)
	}
	b, _ := json.Marshal(resp)
	if strings.Contains(string(b), wiretest.APIKey) {
		t.Errorf("the response or its timeline leaks the key: %s", b)
	}
}

// TestSecretsCanary: every failure kind a transport produces, marshalled
// as a failure artifact with its timeline, never contains the key, even
// when the server echoes it.
func TestSecretsCanary(t *testing.T) {
	echo := `{"error":{"message":"Incorrect API key provided: ` + wiretest.APIKey + `","code":"invalid_api_key"}}`
	for _, ref := range []string{"openai/gpt-5", "openai-codex/gpt-5-codex", "anthropic/claude-sonnet-4-5", "ollama/llama3.2"} {
		for _, status := range []int{401, 429, 500} {
			t.Run(fmt.Sprintf("%s/%d", ref, status), func(t *testing.T) {
				srv := wiretest.NewServer(t, wiretest.Reply{Status: status, Body: []byte(echo)})
				r, _ := providers.ParseModelRef(ref)
				ep := providers.Endpoint{Ref: r, BaseURL: srv.URL + "/v1/", APIKey: wiretest.APIKey, HTTPClient: srv.Client()}
				if r.Provider == "ollama" {
					ep.Transport = providers.TransportChat
				}
				clock := clockwork.NewFakeClock()
				ch, err := catalog.Chain(policy(), []providers.Endpoint{ep}, nil, providers.WithClock(clock))
				if err != nil {
					t.Fatal(err)
				}
				var logs bytes.Buffer
				ctx := zerolog.New(&logs).Level(zerolog.DebugLevel).WithContext(context.Background())
				_, err = completeCtx(t, ctx, ch, clock)
				if err == nil {
					t.Fatal("Complete succeeded against an error server")
				}
				if logs.Len() == 0 {
					t.Error("the chain logged nothing")
				}
				f, _ := json.Marshal(providers.FailureOf(err))
				a, _ := json.Marshal(providers.ArtifactOf(err))
				all := err.Error() + fmt.Sprintf("%v %+v", err, err) + string(f) + string(a) + logs.String()
				if strings.Contains(all, wiretest.APIKey) {
					t.Errorf("the key leaks:\n%s", all)
				}
			})
		}
	}
}

// TestAttemptTimeout: a server that stalls mid-body is cut off by the
// policy's attempt timeout on the fake clock, retried twice, and the
// round fails as retries-exhausted timeouts; no real time passes.
func TestAttemptTimeout(t *testing.T) {
	srv := wiretest.NewServer(t, wiretest.Reply{Body: []byte(`{"id":"resp_1","output":[`), Stall: true})
	ep := providers.Endpoint{Ref: providers.ModelRef{Provider: "openai", Model: "gpt-5"}, BaseURL: srv.URL + "/v1/",
		APIKey: wiretest.APIKey, HTTPClient: srv.Client()}
	clock := clockwork.NewFakeClock()
	p := providers.DefaultRetryPolicy()
	p.AttemptTimeout = 30 * time.Second
	ch, err := catalog.Chain(p, []providers.Endpoint{ep}, nil, providers.WithClock(clock))
	if err != nil {
		t.Fatal(err)
	}
	// Only one timer exists at a time (the attempt's, then the backoff's),
	// so advancing whenever one waits fires exactly that one.
	_, err = complete(t, ch, clock)
	tl, ok := providers.TimelineOf(err)
	if providers.KindOf(err) != providers.KindTimeout || !ok || len(tl.Attempts) != 3 {
		t.Fatalf("Complete = %v with %d attempts, want 3 timeouts", err, len(tl.Attempts))
	}
	last := tl.Attempts[2]
	if last.Outcome != providers.OutcomeRetriesExhausted || last.TransportDiagnostics == nil || !last.TransportDiagnostics.HTTP.IsTimeout {
		t.Errorf("last attempt = %+v", last)
	}
}
