package providers_test

import (
	"context"
	"errors"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/holon-actors/holon-actors/providers"
)

func TestClassifyStatus(t *testing.T) {
	tests := []struct {
		name     string
		status   int
		header   http.Header
		body     string
		kind     providers.ErrorKind
		code     string
		retryAft time.Duration
	}{
		{"openai rate limit with retry-after", 429, http.Header{"Retry-After": {"7"}},
			`{"error":{"message":"Rate limit reached","type":"requests","code":"rate_limit_exceeded"}}`, providers.KindRateLimited, "rate_limit_exceeded", 7 * time.Second},
		{"retry-after-ms wins", 429, http.Header{"Retry-After": {"7"}, "Retry-After-Ms": {"250"}},
			`{}`, providers.KindRateLimited, "", 250 * time.Millisecond},
		{"openai out of quota", 429, nil,
			`{"error":{"message":"You exceeded your current quota","type":"insufficient_quota","code":"insufficient_quota"}}`, providers.KindQuotaExhausted, "insufficient_quota", 0},
		{"openai context length", 400, nil,
			`{"error":{"message":"This model's maximum context length is 8192 tokens.","type":"invalid_request_error","code":"context_length_exceeded"}}`, providers.KindContextLength, "context_length_exceeded", 0},
		{"anthropic prompt too long", 400, nil,
			`{"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 210000 tokens > 200000 maximum"}}`, providers.KindContextLength, "invalid_request_error", 0},
		{"anthropic overloaded", 529, nil,
			`{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`, providers.KindServer, "overloaded_error", 0},
		{"unauthorized", 401, nil, `{"error":{"message":"bad key","type":"invalid_request_error","code":"invalid_api_key"}}`, providers.KindAuth, "invalid_api_key", 0},
		{"forbidden", 403, nil, `not json`, providers.KindAuth, "", 0},
		{"other 4xx", 404, nil, `{"error":"model not found"}`, providers.KindBadRequest, "", 0},
		{"request timeout", 408, nil, ``, providers.KindTimeout, "", 0},
		{"plain 500", 500, nil, `<html>oops</html>`, providers.KindServer, "", 0},
		{"bad gateway", 502, nil, ``, providers.KindServer, "", 0},
		{"not implemented fails closed", 501, nil, ``, providers.KindUnsupported, "", 0},
		{"numeric code", 400, nil, `{"error":{"message":"bad","code":400}}`, providers.KindBadRequest, "400", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := providers.ClassifyStatus(providers.HTTPFailure{Provider: "openai/gpt-5", URL: "https://u:p@api.example/v1/responses?key=1",
				Status: tt.status, Header: tt.header, Body: []byte(tt.body)})
			if e.Kind != tt.kind || e.Code != tt.code || e.RetryAfter != tt.retryAft || e.Status != tt.status {
				t.Errorf("ClassifyStatus = {%s %q %v %d}, want {%s %q %v %d}", e.Kind, e.Code, e.RetryAfter, e.Status,
					tt.kind, tt.code, tt.retryAft, tt.status)
			}
			if d := e.Diagnostics; d == nil || d.Stage != providers.StageStatus || d.URL != "https://api.example/v1/responses" || d.Status != tt.status {
				t.Errorf("diagnostics = %+v, want stage response_status with a sanitized URL", d)
			}
		})
	}
}

func TestRetryAfterDate(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	h := http.Header{"Retry-After": {now.Add(90 * time.Second).Format(http.TimeFormat)}}
	if got := providers.RetryAfter(h, now); got != 90*time.Second {
		t.Errorf("RetryAfter(date) = %v, want 1m30s", got)
	}
}

func TestClassifyTransport(t *testing.T) {
	expired, cancel := context.WithDeadline(context.Background(), time.Unix(0, 0))
	defer cancel()
	canceled, cancel2 := context.WithCancel(context.Background())
	cancel2()
	refused := &net.OpError{Op: "dial", Net: "tcp", Err: errors.New("connect: connection refused")}
	tests := []struct {
		name  string
		ctx   context.Context
		stage string
		err   error
		kind  providers.ErrorKind
		flag  func(*providers.HTTPFlags) bool
	}{
		{"deadline", expired, providers.StageBody, context.DeadlineExceeded, providers.KindTimeout, func(f *providers.HTTPFlags) bool { return f.IsTimeout }},
		{"canceled", canceled, providers.StageRequest, context.Canceled, providers.KindCanceled, func(f *providers.HTTPFlags) bool { return !f.IsTimeout }},
		{"refused", context.Background(), providers.StageRequest, refused, providers.KindConnection, func(f *providers.HTTPFlags) bool { return f.IsConnect }},
		{"net timeout", context.Background(), providers.StageRequest, &net.DNSError{IsTimeout: true}, providers.KindTimeout, func(f *providers.HTTPFlags) bool { return f.IsTimeout }},
		{"truncated body", context.Background(), providers.StageBody, errors.New("unexpected EOF"), providers.KindConnection, func(f *providers.HTTPFlags) bool { return f.IsBody }},
		{"bad json", context.Background(), providers.StageDecode, errors.New("invalid character"), providers.KindProtocol, func(f *providers.HTTPFlags) bool { return f.IsDecode }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := providers.ClassifyTransport(tt.ctx, "openai/gpt-5", "http://127.0.0.1:1/v1", tt.stage, tt.err, "sk-secret-value")
			if e.Kind != tt.kind {
				t.Errorf("kind = %s, want %s", e.Kind, tt.kind)
			}
			if e.Diagnostics == nil || e.Diagnostics.HTTP == nil || !tt.flag(e.Diagnostics.HTTP) {
				t.Errorf("diagnostics = %+v, flags wrong", e.Diagnostics)
			}
		})
	}
}

func TestRedact(t *testing.T) {
	got := providers.Redact("Incorrect API key provided: sk-live-123456.", "sk-live-123456")
	if strings.Contains(got, "sk-live") {
		t.Errorf("Redact left the key: %q", got)
	}
}

// TestTransportErrorRedactsURLCredentials: a base URL carrying a key as a
// query value (and a password) is quoted by Go's transport error; the
// classified error keeps neither in its message or source chain.
func TestTransportErrorRedactsURLCredentials(t *testing.T) {
	const canary = "query-canary-0123456789"
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close() // refused from now on
	ep := providers.Endpoint{Ref: providers.ModelRef{Provider: "gateway", Model: "m"}, Transport: providers.TransportChat,
		BaseURL: "http://user:pw-" + canary + "@" + addr + "/v1?key=" + canary}
	post := ep.Post("/chat/completions", nil)
	if want := "http://user:pw-" + canary + "@" + addr + "/v1/chat/completions?key=" + canary; post.URL != want {
		t.Fatalf("Post URL = %q, want %q (the path before the query)", post.URL, want)
	}
	req, _ := http.NewRequest("POST", post.URL, strings.NewReader("{}"))
	_, rerr := http.DefaultClient.Do(req)
	if rerr == nil || !strings.Contains(rerr.Error(), canary) {
		t.Fatalf("the transport error %v does not quote the key: nothing to test", rerr)
	}
	e := providers.ClassifyTransport(context.Background(), "gateway/m", post.URL, providers.StageRequest, rerr, "")
	all := e.Error() + e.Message + strings.Join(e.Diagnostics.SourceChain, " ") + e.Diagnostics.URL
	if strings.Contains(all, canary) || e.Kind != providers.KindConnection {
		t.Fatalf("classified %s error leaks the key: %s", e.Kind, all)
	}
}
