package notify

import "errors"

// New and Config.Validate.
var (
	// ErrInvalidConfig is wrapped by Config.Validate and New errors, and by
	// Verify when the receiver's secret is too short.
	ErrInvalidConfig = errors.New("notify: invalid webhook config")
)

// Verify.
var (
	// ErrMalformedHeader is returned when the timestamp or signature header
	// is missing or not in the documented form.
	ErrMalformedHeader = errors.New("notify: malformed signature header")
	// ErrSignatureMismatch is returned when no v1 signature matches the
	// timestamp and body: a wrong secret, or a tampered request.
	ErrSignatureMismatch = errors.New("notify: signature mismatch")
	// ErrStaleTimestamp is returned when a correctly signed request's
	// timestamp is further from now than the tolerance: a replay, or a
	// badly skewed clock.
	ErrStaleTimestamp = errors.New("notify: timestamp outside tolerance")
)
