package node

import "errors"

// ErrConfig is matched (errors.Is) by every error saying the configuration
// given to this package cannot work: a bad model configuration, script or
// interval. Its message is the cause's alone.
var ErrConfig = errors.New("node: invalid configuration")

// configError marks err as a configuration error without changing its text.
type configError struct{ err error }

func (e configError) Error() string   { return e.err.Error() }
func (e configError) Unwrap() []error { return []error{e.err, ErrConfig} }

func invalid(err error) error { return configError{err} }
