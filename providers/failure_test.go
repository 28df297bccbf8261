package providers_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/jonboulle/clockwork"

	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/providers"
)

func TestCategoryOf(t *testing.T) {
	tests := map[providers.ErrorKind]messages.FailureCategory{
		providers.KindTimeout:         messages.FailureTransport,
		providers.KindAuth:            messages.FailureTransport,
		providers.KindContextLength:   messages.FailureTransport,
		providers.KindProtocol:        messages.FailureProtocol,
		providers.KindUnsupported:     messages.FailureProtocol,
		providers.KindNotConfigured:   messages.FailureRuntime,
		providers.KindProviderUnknown: messages.FailureUnknown,
	}
	for kind, want := range tests {
		if got := providers.CategoryOf(kind); got != want || !got.Valid() {
			t.Errorf("CategoryOf(%s) = %s, want %s", kind, got, want)
		}
	}
}

func TestFailureOfChainError(t *testing.T) {
	clock := clockwork.NewFakeClock()
	status := providers.ClassifyStatus(providers.HTTPFailure{Provider: "openai/gpt-5", URL: "https://api.openai.com/v1/responses",
		Status: 400, Body: []byte(`{"error":{"message":"maximum context length","code":"context_length_exceeded"}}`)})
	p := &scripted{name: "openai/gpt-5", steps: []step{{err: status}}}
	_, err := complete(t, context.Background(), newChain(t, clock, providers.Candidate{Provider: p}), clock)

	a := providers.ArtifactOf(err)
	if a.Category != messages.FailureTransport || a.Provider != "openai" || a.ModelRef != "openai/gpt-5" || a.Status != 400 ||
		a.Metadata["failure_kind"] != "context_length_exceeded" || a.Metadata["attempts"] != "1" || a.Metadata["stage"] != providers.StageStatus {
		t.Errorf("ArtifactOf = %+v", a)
	}
	if !strings.Contains(a.Summary, "will not continue by itself") {
		t.Errorf("summary %q is not the context-length brief", a.Summary)
	}
	f := providers.FailureOf(err)
	if f.Category != messages.FailureTransport || f.Code != "context_length_exceeded" {
		t.Errorf("FailureOf = %+v", f)
	}
	var details struct {
		Artifact providers.FailureArtifact         `json:"failure_artifact"`
		Timeline providers.ProviderAttemptTimeline `json:"provider_attempt_timeline"`
	}
	if err := json.Unmarshal(f.Details, &details); err != nil {
		t.Fatalf("details: %v", err)
	}
	if len(details.Timeline.Attempts) != 1 || details.Timeline.Attempts[0].TransportDiagnostics.Status != 400 {
		t.Errorf("details timeline = %+v", details.Timeline)
	}
}

func TestArtifactOfPlainError(t *testing.T) {
	a := providers.ArtifactOf(errors.New("boom"))
	if a.Category != messages.FailureUnknown || a.Summary != "boom" {
		t.Errorf("ArtifactOf(plain) = %+v", a)
	}
}

// TestTimelineJSON pins the snake_case field names of the spec.
func TestTimelineJSON(t *testing.T) {
	ms := int64(5)
	tl := providers.ProviderAttemptTimeline{RequestedModelRef: "a/m", Attempts: []providers.ProviderAttemptRecord{{
		Provider: "a", ModelRef: "a/m", Attempt: 1, MaxAttempts: 3, DurationMS: &ms, FailureKind: "timeout",
		Disposition: "retryable", Outcome: providers.OutcomeRetrying, BackoffMS: &ms,
		TransportDiagnostics: &providers.TransportDiagnostics{Stage: "response_body", HTTP: &providers.HTTPFlags{IsTimeout: true},
			SourceChain: []string{"x"}},
	}}}
	b, _ := json.Marshal(tl)
	want := `{"attempts":[{"provider":"a","model_ref":"a/m","attempt":1,"max_attempts":3,"duration_ms":5,"failure_kind":"timeout",` +
		`"disposition":"retryable","outcome":"retrying","advanced_to_fallback":false,"backoff_ms":5,"transport_diagnostics":{"stage":"response_body",` +
		`"reqwest":{"is_timeout":true,"is_connect":false,"is_request":false,"is_body":false,"is_decode":false,"is_redirect":false},"source_chain":["x"]}}],` +
		`"requested_model_ref":"a/m"}`
	if string(b) != want {
		t.Errorf("timeline JSON =\n%s\nwant\n%s", b, want)
	}
}
