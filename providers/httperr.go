package providers

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// maxMessage bounds vendor error messages kept in an *Error.
const maxMessage = 300

// HTTPFailure describes an HTTP error response for ClassifyStatus.
type HTTPFailure struct {
	Provider string      // the candidate's model ref
	URL      string      // the request URL; sanitized before it is kept
	Status   int         // the HTTP status
	Header   http.Header // for Retry-After
	Body     []byte      // the response body, possibly truncated
	Now      time.Time   // for an HTTP-date Retry-After
	Secret   Secret      // scrubbed from anything kept
}

// ClassifyStatus classifies an HTTP error response by the phase-1 policy:
// context_length_exceeded by code or message; 429 rate limited unless the
// quota is exhausted; 401/403 auth; 408 timeout; 500, 502-504, 529 and
// other 5xx server errors, except 501 and 505 which fail closed as
// unsupported; any other 4xx a bad request.
func ClassifyStatus(f HTTPFailure) *Error {
	v := parseVendorError(f.Body)
	e := &Error{Provider: f.Provider, Status: f.Status, Code: v.code(),
		RetryAfter: RetryAfter(f.Header, f.Now)}
	e.Message = redactURL(Redact(truncate(strings.TrimSpace("HTTP "+strconv.Itoa(f.Status)+" "+v.Message)), f.Secret), f.URL)
	e.Kind = statusKind(f.Status, v)
	e.Diagnostics = &TransportDiagnostics{Stage: StageStatus, Provider: providerOf(f.Provider), ModelRef: f.Provider,
		URL: SanitizeURL(f.URL), Status: f.Status, HTTP: &HTTPFlags{Status: f.Status}}
	return e
}

func statusKind(status int, v vendorError) ErrorKind {
	switch {
	case v.contextLength():
		return KindContextLength
	case status == http.StatusTooManyRequests && v.quota():
		return KindQuotaExhausted
	case status == http.StatusTooManyRequests:
		return KindRateLimited
	case status == http.StatusUnauthorized || status == http.StatusForbidden:
		return KindAuth
	case status == http.StatusRequestTimeout:
		return KindTimeout
	case status == http.StatusNotImplemented || status == http.StatusHTTPVersionNotSupported:
		return KindUnsupported
	case status >= 500:
		return KindServer
	case status >= 400:
		return KindBadRequest
	}
	return KindProtocol
}

// vendorError is the error object of OpenAI ({"error":{"message","type",
// "code"}}), Anthropic ({"type":"error","error":{"type","message"}}) and
// compatible servers ({"error":"text"} or {"message":"text"}).
type vendorError struct {
	Message string
	Type    string
	Code    string
}

func (v vendorError) code() string {
	if v.Code != "" {
		return v.Code
	}
	return v.Type
}

func (v vendorError) contextLength() bool {
	if v.Code == "context_length_exceeded" || v.Type == "context_length_exceeded" {
		return true
	}
	m := strings.ToLower(v.Message)
	return strings.Contains(m, "context length") || strings.Contains(m, "context window") ||
		strings.Contains(m, "prompt is too long")
}

func (v vendorError) quota() bool {
	return v.Code == "insufficient_quota" || v.Type == "insufficient_quota"
}

func parseVendorError(body []byte) vendorError {
	var top struct {
		Error   json.RawMessage `json:"error"`
		Message string          `json:"message"`
	}
	if json.Unmarshal(body, &top) != nil {
		return vendorError{}
	}
	var s string
	if json.Unmarshal(top.Error, &s) == nil {
		return vendorError{Message: s}
	}
	var obj struct {
		Message string          `json:"message"`
		Type    string          `json:"type"`
		Code    json.RawMessage `json:"code"`
	}
	if json.Unmarshal(top.Error, &obj) != nil {
		return vendorError{Message: top.Message}
	}
	v := vendorError{Message: obj.Message, Type: obj.Type}
	if json.Unmarshal(obj.Code, &v.Code) != nil && len(obj.Code) > 0 && string(obj.Code) != "null" {
		v.Code = string(obj.Code) // a numeric code
	}
	return v
}

// RetryAfter reads retry-after-ms, then Retry-After (seconds or an HTTP
// date relative to now). It returns 0 when absent or unparsable.
func RetryAfter(h http.Header, now time.Time) time.Duration {
	if h == nil {
		return 0
	}
	if ms, err := strconv.ParseFloat(h.Get("Retry-After-Ms"), 64); err == nil && ms > 0 {
		return time.Duration(ms * float64(time.Millisecond))
	}
	v := strings.TrimSpace(h.Get("Retry-After"))
	if s, err := strconv.ParseFloat(v, 64); err == nil && s > 0 {
		return time.Duration(s * float64(time.Second))
	}
	if t, err := http.ParseTime(v); err == nil && t.After(now) {
		return t.Sub(now)
	}
	return 0
}

// ClassifyTransport classifies a failure with no HTTP status: a done ctx
// (timeout or canceled), a network timeout, a refused or reset connection,
// a truncated body, or a body that was not the documented JSON (protocol).
// stage is where it happened (StageRequest, StageBody, StageDecode).
func ClassifyTransport(ctx context.Context, provider, rawURL, stage string, err error, secret Secret) *Error {
	if ce := CtxError(ctx, provider, stage, err); ce != nil {
		ce.Diagnostics.URL = SanitizeURL(rawURL)
		ce.Diagnostics.ModelRef = provider
		ce.Diagnostics.Provider = providerOf(provider)
		ce.Diagnostics.SourceChain = redactAll(ce.Diagnostics.SourceChain, secret, rawURL)
		ce.Message = redactURL(ce.Message, rawURL)
		return ce
	}
	flags := &HTTPFlags{}
	kind := KindConnection
	var ne net.Error
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se) || errors.As(err, &te) || stage == StageDecode:
		kind, flags.IsDecode, stage = KindProtocol, true, StageDecode
	case errors.As(err, &ne) && ne.Timeout():
		kind, flags.IsTimeout = KindTimeout, true
	case isConnect(err):
		flags.IsConnect = true
	case errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) || errors.Is(err, syscall.ECONNRESET) || stage == StageBody:
		flags.IsBody, stage = true, StageBody
	default:
		flags.IsRequest = true
	}
	return &Error{Provider: provider, Kind: kind, Message: redactURL(Redact(truncate(stage+": "+err.Error()), secret), rawURL), Err: err,
		Diagnostics: &TransportDiagnostics{Stage: stage, Provider: providerOf(provider), ModelRef: provider,
			URL: SanitizeURL(rawURL), HTTP: flags, SourceChain: redactAll(SourceChain(err), secret, rawURL)}}
}

func isConnect(err error) bool {
	var oe *net.OpError
	if errors.As(err, &oe) && oe.Op == "dial" {
		return true
	}
	var de *net.DNSError
	return errors.As(err, &de) || errors.Is(err, syscall.ECONNREFUSED)
}

// ProtocolError is a response that arrived whole but is not the documented
// shape: fail-fast, category protocol.
func ProtocolError(provider, rawURL, msg string) *Error {
	return &Error{Provider: provider, Kind: KindProtocol, Message: truncate(msg),
		Diagnostics: &TransportDiagnostics{Stage: StageDecode, Provider: providerOf(provider), ModelRef: provider,
			URL: SanitizeURL(rawURL), HTTP: &HTTPFlags{IsDecode: true}}}
}

// SanitizeURL drops user info, query and fragment from a URL.
func SanitizeURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return ""
	}
	u.User, u.RawQuery, u.Fragment = nil, "", ""
	return u.String()
}

// Redact replaces every occurrence of the secret in s.
func Redact(s string, secret Secret) string {
	if len(secret) < 4 { // too short to scrub meaningfully; never sent either
		return s
	}
	return strings.ReplaceAll(s, string(secret), redacted)
}

// redactURL replaces in s the credentials rawURL carries: its user info
// password and its query values (a key given as ?key=…), which a Go
// transport error quotes with the URL.
func redactURL(s, rawURL string) string {
	u, err := url.Parse(rawURL)
	if err != nil {
		return s
	}
	if p, ok := u.User.Password(); ok {
		s = Redact(s, Secret(p))
	}
	for _, vs := range u.Query() {
		for _, v := range vs {
			s = Redact(s, Secret(v))
			if esc := url.QueryEscape(v); esc != v {
				s = Redact(s, Secret(esc))
			}
		}
	}
	return s
}

func redactAll(ss []string, secret Secret, rawURL string) []string {
	for i := range ss {
		ss[i] = redactURL(Redact(ss[i], secret), rawURL)
	}
	return ss
}

func truncate(s string) string {
	if len(s) <= maxMessage {
		return s
	}
	return s[:maxMessage] + "…"
}

// ClassifyStreamError classifies a failure reported inside a stream (an
// error event or a failed terminal response) by its vendor code:
// context_length_exceeded, insufficient_quota, rate limits and server or
// overload errors as their kinds, anything else a protocol failure.
func ClassifyStreamError(provider, rawURL, code, message string, secret Secret) *Error {
	v := vendorError{Code: code, Message: message}
	kind := KindProtocol
	switch {
	case v.contextLength():
		kind = KindContextLength
	case v.quota():
		kind = KindQuotaExhausted
	case strings.Contains(code, "rate_limit"):
		kind = KindRateLimited
	case strings.Contains(code, "server_error") || strings.Contains(code, "overloaded") || code == "api_error":
		kind = KindServer
	}
	return &Error{Provider: provider, Kind: kind, Code: code, Message: Redact(truncate("stream: "+code+": "+message), secret),
		Diagnostics: &TransportDiagnostics{Stage: StageStream, Provider: providerOf(provider), ModelRef: provider,
			URL: SanitizeURL(rawURL)}}
}
