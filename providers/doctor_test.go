package providers_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/jonboulle/clockwork"

	"github.com/holon-actors/holon-actors/providers"
)

func TestDoctor(t *testing.T) {
	var sawAuth atomic.Bool
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "" {
			sawAuth.Store(true)
		}
		w.WriteHeader(http.StatusUnauthorized)
	}))
	defer srv.Close()
	dead := httptest.NewServer(http.NotFoundHandler())
	deadURL := dead.URL
	dead.Close()

	const key = "sk-doctor-canary-1234"
	eps := []providers.Endpoint{
		{Ref: providers.ModelRef{Provider: "openai", Model: "gpt-5"}, BaseURL: srv.URL + "/v1/", APIKey: key},
		{Ref: providers.ModelRef{Provider: "ollama", Model: "llama3.2"}, Transport: providers.TransportChat, BaseURL: deadURL + "/v1/"},
		{Ref: providers.ModelRef{Provider: "bedrock", Model: "claude"}},
	}
	r := providers.Doctor(context.Background(), eps, providers.DoctorOptions{Policy: providers.DefaultRetryPolicy(),
		Breaker: providers.DefaultBreakerConfig(), Probe: srv.Client(), Clock: clockwork.NewFakeClock()})

	if len(r.Candidates) != 3 || r.RetryPolicy.MaxRetries != 2 {
		t.Fatalf("report = %+v", r)
	}
	openai, ollama, bedrock := r.Candidates[0], r.Candidates[1], r.Candidates[2]
	if !openai.CredentialPresent || !openai.Supported || openai.Probe == nil || !openai.Probe.Reachable || openai.Probe.Status != 401 {
		t.Errorf("openai candidate = %+v (probe %+v)", openai, openai.Probe)
	}
	if ollama.CredentialPresent || ollama.Probe == nil || ollama.Probe.Reachable || ollama.Probe.Error == "" {
		t.Errorf("ollama candidate = %+v (probe %+v)", ollama, ollama.Probe)
	}
	if bedrock.Supported || bedrock.Problem == "" || bedrock.Probe != nil {
		t.Errorf("bedrock candidate = %+v", bedrock)
	}
	if sawAuth.Load() {
		t.Error("the probe sent a credential")
	}
	b, _ := json.Marshal(r)
	if strings.Contains(string(b), key) {
		t.Errorf("report leaks the key: %s", b)
	}
}
