package providers

import "context"

// Rejected is a candidate whose transport could not be built (an
// unsupported transport contract, a missing base URL). Every call fails
// with the construction error, so the chain records the rejection in the
// attempt timeline and falls back to the next candidate: selection fails
// closed without hiding the candidate.
type Rejected struct {
	Ref string
	Err error
}

// Name implements Provider.
func (r Rejected) Name() string { return r.Ref }

// Complete implements Provider: it always returns Err.
func (r Rejected) Complete(context.Context, Request) (Response, error) { return Response{}, r.Err }
