package providers

import (
	"errors"
	"time"

	"github.com/holon-actors/holon-actors/messages"
)

// ProviderAttemptOutcome is what happened after one provider attempt.
type ProviderAttemptOutcome string

// The attempt outcomes of runtime-spec-v0 "Provider Transport Contract".
const (
	OutcomeRetrying         ProviderAttemptOutcome = "retrying"
	OutcomeRetriesExhausted ProviderAttemptOutcome = "retries_exhausted"
	OutcomeFailFastAborted  ProviderAttemptOutcome = "fail_fast_aborted"
	OutcomeSucceeded        ProviderAttemptOutcome = "succeeded"
)

// String returns the outcome as spelled in JSON.
func (o ProviderAttemptOutcome) String() string { return string(o) }

// ProviderAttemptRecord is one provider request attempt. Times are RFC 3339
// in UTC; DurationMS covers dispatch to complete response or error, and the
// wait before the next attempt is BackoffMS, never part of DurationMS.
type ProviderAttemptRecord struct {
	Provider             string                 `json:"provider"`
	ModelRef             string                 `json:"model_ref"`
	Attempt              int                    `json:"attempt"`
	MaxAttempts          int                    `json:"max_attempts"`
	StartedAt            *time.Time             `json:"started_at,omitempty"`
	CompletedAt          *time.Time             `json:"completed_at,omitempty"`
	DurationMS           *int64                 `json:"duration_ms,omitempty"`
	FailureKind          string                 `json:"failure_kind,omitempty"`
	Disposition          string                 `json:"disposition,omitempty"`
	Outcome              ProviderAttemptOutcome `json:"outcome"`
	AdvancedToFallback   bool                   `json:"advanced_to_fallback"`
	BackoffMS            *int64                 `json:"backoff_ms,omitempty"`
	TokenUsage           *messages.TokenUsage   `json:"token_usage,omitempty"`
	TransportDiagnostics *TransportDiagnostics  `json:"transport_diagnostics,omitempty"`
}

// TransportDiagnostics tells where in the transport an attempt failed, so
// artifacts can tell timeout from connect from body failures without
// widening operator summaries. URL never holds a query or credentials.
type TransportDiagnostics struct {
	// Stage is one of the Stage* constants.
	Stage    string `json:"stage"`
	Provider string `json:"provider,omitempty"`
	ModelRef string `json:"model_ref,omitempty"`
	URL      string `json:"url,omitempty"`
	Status   int    `json:"status,omitempty"`
	// HTTP holds the client-side flags. Its JSON key is the spec's
	// "reqwest" (named after the reference implementation's HTTP client).
	HTTP        *HTTPFlags `json:"reqwest,omitempty"`
	SourceChain []string   `json:"source_chain,omitempty"`
}

// HTTPFlags classify a client-side HTTP failure.
type HTTPFlags struct {
	IsTimeout  bool `json:"is_timeout"`
	IsConnect  bool `json:"is_connect"`
	IsRequest  bool `json:"is_request"`
	IsBody     bool `json:"is_body"`
	IsDecode   bool `json:"is_decode"`
	IsRedirect bool `json:"is_redirect"`
	Status     int  `json:"status,omitempty"`
}

// The transport stages named in diagnostics.
const (
	StageCandidate = "candidate_selection" // breaker open, unsupported transport
	StageRequest   = "request"             // building or sending the request, connecting
	StageStatus    = "response_status"     // the server answered with an error status
	StageBody      = "response_body"       // reading the body or the event stream
	StageDecode    = "decode"              // the body was not the documented shape
	StageStream    = "stream_terminal"     // a streamed terminal event reported failure
)

// ProviderAttemptTimeline is every attempt of one provider round, across
// retries and fallback candidates.
type ProviderAttemptTimeline struct {
	Attempts             []ProviderAttemptRecord `json:"attempts"`
	RequestedModelRef    string                  `json:"requested_model_ref"`
	ActiveModelRef       string                  `json:"active_model_ref,omitempty"`
	WinningModelRef      string                  `json:"winning_model_ref,omitempty"`
	AggregatedTokenUsage *messages.TokenUsage    `json:"aggregated_token_usage,omitempty"`
}

// add appends r and folds its usage into the aggregate.
func (t *ProviderAttemptTimeline) add(r ProviderAttemptRecord) {
	t.Attempts = append(t.Attempts, r)
	if r.TokenUsage == nil {
		return
	}
	if t.AggregatedTokenUsage == nil {
		t.AggregatedTokenUsage = &messages.TokenUsage{}
	}
	AddUsage(t.AggregatedTokenUsage, *r.TokenUsage)
}

// last returns the most recent record, nil when there is none.
func (t *ProviderAttemptTimeline) last() *ProviderAttemptRecord {
	if len(t.Attempts) == 0 {
		return nil
	}
	return &t.Attempts[len(t.Attempts)-1]
}

// AddUsage adds u into sum.
func AddUsage(sum *messages.TokenUsage, u messages.TokenUsage) {
	sum.InputTokens += u.InputTokens
	sum.OutputTokens += u.OutputTokens
	sum.CacheReadInputTokens += u.CacheReadInputTokens
	sum.CacheCreationInputTokens += u.CacheCreationInputTokens
	sum.TotalTokens += u.TotalTokens
}

// SourceChain lists the messages of err and of every error it wraps,
// outermost first, at most 8 entries.
func SourceChain(err error) []string {
	var out []string
	for err != nil && len(out) < 8 {
		out = append(out, err.Error())
		switch u := err.(type) {
		case interface{ Unwrap() error }:
			err = u.Unwrap()
		case interface{ Unwrap() []error }:
			errs := u.Unwrap()
			if len(errs) == 0 {
				return out
			}
			err = errs[len(errs)-1]
		default:
			err = errors.Unwrap(err)
		}
	}
	return out
}
