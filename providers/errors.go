package providers

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// ErrorKind classifies a provider failure for retry, fallback and the
// operator-facing failure brief.
type ErrorKind string

// The provider failure kinds.
const (
	KindTimeout         ErrorKind = "timeout"
	KindConnection      ErrorKind = "connection"
	KindRateLimited     ErrorKind = "rate_limited"
	KindServer          ErrorKind = "server"      // eligible 5xx, 529 overloaded
	KindAuth            ErrorKind = "auth"        // 401, 403
	KindBadRequest      ErrorKind = "bad_request" // other 4xx
	KindProtocol        ErrorKind = "protocol"    // invalid JSON, unsupported shape
	KindContextLength   ErrorKind = "context_length_exceeded"
	KindNotConfigured   ErrorKind = "not_configured"
	KindQuotaExhausted  ErrorKind = "quota_exhausted" // out-of-quota 429, never retried
	KindUnsupported     ErrorKind = "unsupported_transport"
	KindCircuitOpen     ErrorKind = "circuit_open" // the candidate's breaker refused the call
	KindCanceled        ErrorKind = "canceled"     // the caller cancelled: no retry, no fallback
	KindIncomplete      ErrorKind = "incomplete"   // the model stopped early (response.incomplete)
	KindProviderUnknown ErrorKind = "unknown"
)

// String returns the kind as spelled in JSON and failure codes.
func (k ErrorKind) String() string { return string(k) }

// ErrProvider is wrapped by every *Error.
var ErrProvider = errors.New("providers: provider failure")

// Error is a classified provider failure. It never carries a credential:
// Message and Diagnostics are built from status codes, vendor error codes
// and messages, and Go error chains that do not contain request headers.
type Error struct {
	Provider string
	Kind     ErrorKind
	Message  string

	// Status is the HTTP status, 0 when no response arrived.
	Status int
	// Code is the vendor's error code or type, e.g. "insufficient_quota".
	Code string
	// RetryAfter is the server's Retry-After hint, 0 when absent.
	RetryAfter time.Duration
	// Diagnostics tells where in the transport the failure happened.
	Diagnostics *TransportDiagnostics
	// Err is the underlying cause, if any.
	Err error
}

func (e *Error) Error() string {
	return fmt.Sprintf("%s: %s: %s", e.Provider, e.Kind, e.Message)
}

// Unwrap returns ErrProvider and the cause, so errors.Is matches both
// ErrProvider and, for example, context.DeadlineExceeded.
func (e *Error) Unwrap() []error {
	if e.Err != nil {
		return []error{ErrProvider, e.Err}
	}
	return []error{ErrProvider}
}

// Retryable reports whether the spec's phase-1 policy retries this kind.
func (e *Error) Retryable() bool { return e.Kind.Retryable() }

// Retryable reports whether the phase-1 policy retries a failure of kind k
// on the same candidate: timeouts, connection failures, 429 (but not an
// exhausted quota) and eligible 5xx including 529.
func (k ErrorKind) Retryable() bool {
	switch k {
	case KindTimeout, KindConnection, KindRateLimited, KindServer:
		return true
	}
	return false
}

// Fallback reports whether a failure of kind k may move on to the next
// candidate. A context_length_exceeded failure is turn-terminal and a
// cancelled call stops everything.
func (k ErrorKind) Fallback() bool {
	switch k {
	case KindContextLength, KindCanceled:
		return false
	}
	return true
}

// Disposition names the policy decision for kind k: "retryable",
// "fail_fast" or "terminal".
func (k ErrorKind) Disposition() string {
	switch {
	case k.Retryable():
		return "retryable"
	case !k.Fallback():
		return "terminal"
	}
	return "fail_fast"
}

// KindOf returns the kind of a provider failure, KindProviderUnknown for
// anything that is not an *Error.
func KindOf(err error) ErrorKind {
	var pe *Error
	if errors.As(err, &pe) {
		return pe.Kind
	}
	return KindProviderUnknown
}

// CtxError classifies a failure that happened while ctx was done: a passed
// deadline (or a cancellation whose cause is context.DeadlineExceeded, as
// the chain's attempt timeout uses) is KindTimeout, any other cancellation
// KindCanceled. It returns nil when
// ctx is still live.
func CtxError(ctx context.Context, provider, stage string, cause error) *Error {
	var kind ErrorKind
	switch {
	case ctx.Err() == nil:
		return nil
	case errors.Is(context.Cause(ctx), context.DeadlineExceeded):
		kind = KindTimeout // a deadline, or an attempt timeout cancelling with that cause
	default:
		kind = KindCanceled
	}
	if cause == nil {
		cause = ctx.Err()
	}
	d := &TransportDiagnostics{Stage: stage, Provider: provider, SourceChain: SourceChain(cause)}
	d.HTTP = &HTTPFlags{IsTimeout: kind == KindTimeout}
	return &Error{Provider: provider, Kind: kind, Message: stage + ": " + context.Cause(ctx).Error(), Diagnostics: d, Err: context.Cause(ctx)}
}
