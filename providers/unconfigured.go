package providers

import "context"

// Unconfigured is the provider of a runtime with no model configured. The
// runtime still runs; every model call fails with KindNotConfigured and a
// message that says how to configure a model, which becomes the turn's
// failure brief.
type Unconfigured struct {
	// Hint says how to configure a model, in operator language.
	Hint string
}

// Name implements Provider.
func (Unconfigured) Name() string { return "unconfigured" }

// Complete implements Provider: it always fails with KindNotConfigured.
func (u Unconfigured) Complete(context.Context, Request) (Response, error) {
	return Response{}, &Error{Provider: "unconfigured", Kind: KindNotConfigured, Message: "no model is configured: " + u.Hint}
}
