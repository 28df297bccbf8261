package messages

import (
	"errors"
	"fmt"
)

// Sentinels, one per kind of malformed value. Every validation error is a
// *FieldError wrapping one of them; match with errors.Is.
var (
	// ErrInvalidEnvelope is wrapped by every error MessageEnvelope.Validate,
	// Origin.Validate and Body.Validate return.
	ErrInvalidEnvelope = errors.New("messages: invalid envelope")
	// ErrInvalidEvent is wrapped by every error Event.Validate and
	// Event.Decode return, and by NewEvent's errors about the event itself.
	ErrInvalidEvent = errors.New("messages: invalid event")
	// ErrInvalidClosure is wrapped by every error Closure.Validate returns.
	ErrInvalidClosure = errors.New("messages: invalid closure")
	// ErrUnknownValue is wrapped by every error returned when a string is not
	// one of an enum's values, by the Parse functions and by JSON decoding.
	// It is a plain wrapped error, not a *FieldError: JSON decoding does not
	// know the field's path.
	ErrUnknownValue = errors.New("messages: unknown value")
)

// FieldError names the field of a message or event that failed validation.
type FieldError struct {
	Field  string // JSON path of the bad field, e.g. "origin.channel_id"
	Reason string
	kind   error
}

func (e *FieldError) Error() string { return fmt.Sprintf("%v: %s %s", e.kind, e.Field, e.Reason) }
func (e *FieldError) Unwrap() error { return e.kind }

func fieldError(kind error, field, reason string) error {
	return &FieldError{Field: field, Reason: reason, kind: kind}
}
