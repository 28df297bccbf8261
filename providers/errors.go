package providers

import (
	"errors"
	"fmt"
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
	KindQuotaExhausted  ErrorKind = "quota_exhausted"
	KindUnsupported     ErrorKind = "unsupported_transport"
	KindProviderUnknown ErrorKind = "unknown"
)

// ErrProvider is wrapped by every *Error.
var ErrProvider = errors.New("providers: provider failure")

// Error is a classified provider failure.
type Error struct {
	Provider string
	Kind     ErrorKind
	Message  string
}

func (e *Error) Error() string {
	return fmt.Sprintf("%s: %s: %s", e.Provider, e.Kind, e.Message)
}

func (e *Error) Unwrap() error { return ErrProvider }

// Retryable reports whether the spec's phase-1 policy retries this kind.
func (e *Error) Retryable() bool {
	switch e.Kind {
	case KindTimeout, KindConnection, KindRateLimited, KindServer:
		return true
	}
	return false
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
