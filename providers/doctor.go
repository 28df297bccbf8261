package providers

import (
	"context"
	"io"
	"net/http"
	"time"

	"github.com/jonboulle/clockwork"
)

// DoctorReport is what `providers doctor` shows: every configured
// candidate, whether its credential is present (never its value), the
// retry policy and, when probed, whether its base URL answers.
type DoctorReport struct {
	Candidates  []CandidateReport `json:"candidates"`
	RetryPolicy RetryPolicy       `json:"retry_policy"`
	Breaker     BreakerConfig     `json:"circuit_breaker"`
}

// CandidateReport describes one configured candidate.
type CandidateReport struct {
	ModelRef          string       `json:"model_ref"`
	Provider          string       `json:"provider"`
	Model             string       `json:"model"`
	Transport         Transport    `json:"transport,omitempty"`
	BaseURL           string       `json:"base_url,omitempty"`
	CredentialPresent bool         `json:"credential_present"`
	Supported         bool         `json:"supported"`
	Problem           string       `json:"problem,omitempty"`
	Probe             *ProbeResult `json:"probe,omitempty"`
}

// ProbeResult is the outcome of one reachability probe. Any HTTP answer,
// even 401 or 404, means the server is reachable.
type ProbeResult struct {
	Reachable bool   `json:"reachable"`
	Status    int    `json:"status,omitempty"`
	LatencyMS int64  `json:"latency_ms"`
	Error     string `json:"error,omitempty"`
}

// DoctorOptions configures Doctor.
type DoctorOptions struct {
	Policy  RetryPolicy
	Breaker BreakerConfig
	// Probe, when set, sends one unauthenticated GET to each supported
	// candidate's base URL with this client.
	Probe *http.Client
	// Clock measures probe latency; nil means the real clock.
	Clock clockwork.Clock
}

// Doctor reports on endpoints in order. It never returns or logs a
// credential; probes carry no credential either.
func Doctor(ctx context.Context, endpoints []Endpoint, opts DoctorOptions) DoctorReport {
	r := DoctorReport{RetryPolicy: opts.Policy, Breaker: opts.Breaker, Candidates: []CandidateReport{}}
	for _, ep := range endpoints {
		c := CandidateReport{ModelRef: ep.Ref.String(), Provider: ep.Ref.Provider, Model: ep.Ref.Model,
			CredentialPresent: ep.APIKey.Present()}
		res, err := ep.Resolve()
		c.Transport, c.BaseURL = res.Transport, SanitizeURL(res.BaseURL)
		c.Supported = err == nil
		if err != nil {
			c.Problem = err.Error()
		} else if opts.Probe != nil {
			p := Probe(ctx, opts.Probe, res.BaseURL, opts.Clock)
			c.Probe = &p
		}
		r.Candidates = append(r.Candidates, c)
	}
	return r
}

// Probe sends one GET to baseURL and reports whether anything answered.
func Probe(ctx context.Context, client *http.Client, baseURL string, clock clockwork.Clock) ProbeResult {
	if clock == nil {
		clock = clockwork.NewRealClock()
	}
	if client == nil {
		client = &http.Client{Timeout: 10 * time.Second}
	}
	start := clock.Now()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, baseURL, nil)
	if err != nil {
		return ProbeResult{Error: "build probe request: " + err.Error()}
	}
	resp, err := client.Do(req)
	res := ProbeResult{LatencyMS: clock.Since(start).Milliseconds()}
	if err != nil {
		res.Error = ClassifyTransport(ctx, "probe", baseURL, StageRequest, err, "").Message
		return res
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	_ = resp.Body.Close()
	res.Reachable, res.Status = true, resp.StatusCode
	return res
}
