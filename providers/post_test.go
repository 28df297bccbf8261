package providers_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/holon-actors/holon-actors/providers"
)

const postKey = "sk-post-canary-0123456789"

// newPost serves every request with h and returns a Post to it.
func newPost(t *testing.T, h http.HandlerFunc) providers.Post {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return providers.Post{Provider: "openai/gpt-5", URL: srv.URL + "/v1/responses", Client: srv.Client(),
		Header: http.Header{"Authorization": {"Bearer " + postKey}, "Content-Type": {"text/plain"}}, Secret: postKey}
}

func TestPostJSON(t *testing.T) {
	var got *http.Request
	var body []byte
	p := newPost(t, func(w http.ResponseWriter, r *http.Request) {
		got = r
		body = make([]byte, r.ContentLength)
		_, _ = r.Body.Read(body)
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"id":"resp_1","n":3}`))
	})
	var v struct {
		ID string `json:"id"`
		N  int    `json:"n"`
	}
	if err := p.JSON(context.Background(), []byte(`{"model":"m"}`), &v); err != nil {
		t.Fatalf("JSON: %v", err)
	}
	if v.ID != "resp_1" || v.N != 3 {
		t.Errorf("decoded %+v", v)
	}
	if got.Method != http.MethodPost || got.URL.Path != "/v1/responses" || string(body) != `{"model":"m"}` {
		t.Errorf("request = %s %s %s", got.Method, got.URL.Path, body)
	}
	// The endpoint's headers go along; Content-Type and Accept are the call's.
	for k, want := range map[string]string{"Authorization": "Bearer " + postKey, "Content-Type": "application/json", "Accept": "application/json"} {
		if g := got.Header.Get(k); g != want {
			t.Errorf("header %s = %q, want %q", k, g, want)
		}
	}
}

func TestPostFailures(t *testing.T) {
	tests := []struct {
		name  string
		h     http.HandlerFunc
		kind  providers.ErrorKind
		stage string
	}{
		{"error status, classified with the body", func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Retry-After", "2")
			w.WriteHeader(http.StatusTooManyRequests)
			_, _ = w.Write([]byte(`{"error":{"message":"slow down, key ` + postKey + `","code":"rate_limit_exceeded"}}`))
		}, providers.KindRateLimited, providers.StageStatus},
		{"not JSON", func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write([]byte("<html></html>")) },
			providers.KindProtocol, providers.StageDecode},
		{"JSON of another shape", func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write([]byte(`{"id":7}`)) },
			providers.KindProtocol, providers.StageDecode},
		{"body cut short", func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Length", "100")
			_, _ = w.Write([]byte(`{"id":`))
		}, providers.KindConnection, providers.StageBody},
		{"declared larger than MaxReplyBytes", func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Length", strconv.Itoa(providers.MaxReplyBytes+1))
			_, _ = w.Write([]byte(`{"id":"`))
		}, providers.KindProtocol, providers.StageDecode},
		{"streamed past MaxReplyBytes", func(w http.ResponseWriter, _ *http.Request) {
			_, _ = w.Write([]byte(`{"id":"`))
			w.(http.Flusher).Flush() // chunked: no declared length
			_, _ = w.Write([]byte(strings.Repeat("x", providers.MaxReplyBytes) + `"}`))
		}, providers.KindProtocol, providers.StageDecode},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var v struct {
				ID string `json:"id"`
			}
			err := newPost(t, tt.h).JSON(context.Background(), []byte(`{}`), &v)
			var pe *providers.Error
			if !errors.As(err, &pe) || pe.Kind != tt.kind {
				t.Fatalf("JSON error = %v (kind %s), want kind %s", err, providers.KindOf(err), tt.kind)
			}
			if pe.Diagnostics == nil || pe.Diagnostics.Stage != tt.stage {
				t.Errorf("diagnostics = %+v, want stage %s", pe.Diagnostics, tt.stage)
			}
			b, _ := json.Marshal(providers.FailureOf(err))
			if strings.Contains(err.Error(), postKey) || strings.Contains(string(b), postKey) {
				t.Errorf("the key leaks: %v %s", err, b)
			}
		})
	}
}

func TestPostCanceled(t *testing.T) {
	p := newPost(t, func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write([]byte(`{}`)) })
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var v map[string]any
	if err := p.JSON(ctx, []byte(`{}`), &v); providers.KindOf(err) != providers.KindCanceled {
		t.Fatalf("JSON on a canceled context = %v, want kind canceled", err)
	}
}

func TestEndpointPost(t *testing.T) {
	ep := providers.Endpoint{Ref: providers.ModelRef{Provider: "ollama", Model: "llama3.2"}, BaseURL: "http://127.0.0.1:11434/v1/"}
	p := ep.Post("/chat/completions", ep.BearerAuth())
	if p.URL != "http://127.0.0.1:11434/v1/chat/completions" || p.Provider != "ollama/llama3.2" || p.Client != providers.SharedClient() {
		t.Errorf("Post = %+v", p)
	}
	if p.Header.Get("User-Agent") != providers.UserAgent || p.Header.Get("Authorization") != "" {
		t.Errorf("headers without a key = %v", p.Header)
	}
	ep.BaseURL, ep.APIKey = "https://api.example.com/v1", postKey
	p = ep.Post("/responses", ep.BearerAuth())
	if p.URL != "https://api.example.com/v1/responses" || p.Header.Get("Authorization") != "Bearer "+postKey || p.Secret != postKey {
		t.Errorf("Post with a key = %+v", p)
	}
	if h := ep.Post("/v1/messages", http.Header{"x-api-key": {"k"}}).Header; h.Get("X-Api-Key") != "k" {
		t.Errorf("extra header not canonical: %v", h)
	}
}
