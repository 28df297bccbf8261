package supervision

import (
	"errors"

	"github.com/asynkron/protoactor-go/actor"
)

// permanent is implemented by failures that no restart can fix. A panic
// value, or an error anywhere in a panic value's chain, that has a
// Permanent method returning true is classified as permanent by Decide.
type permanent interface{ Permanent() bool }

// Decide is the default decider of a Strategy, an actor.DeciderFunc: a
// permanent failure (see IsPermanent) stops the child at once, without
// restarts; every other panic restarts it within the policy's budget.
func Decide(reason any) actor.Directive {
	if IsPermanent(reason) {
		return actor.StopDirective
	}
	return actor.RestartDirective
}

// IsPermanent reports whether reason, a panic value, has a method
// Permanent() bool that returns true, or is an error whose chain holds the
// first such value (found with errors.As).
func IsPermanent(reason any) bool {
	if p, ok := reason.(permanent); ok {
		return p.Permanent()
	}
	if err, ok := reason.(error); ok {
		var p permanent
		if errors.As(err, &p) {
			return p.Permanent()
		}
	}
	return false
}

// Permanent marks err as a failure that restarting cannot fix, for example
// a journal that does not decode: an actor that panics with it is stopped
// at once. errors.Is and errors.As still see err. Permanent(nil) is nil.
func Permanent(err error) error {
	if err == nil {
		return nil
	}
	return &permanentError{err: err}
}

type permanentError struct{ err error }

func (e *permanentError) Error() string   { return e.err.Error() }
func (e *permanentError) Unwrap() error   { return e.err }
func (e *permanentError) Permanent() bool { return true }
