// Package providers talks to language models: the Provider interface, the
// provider-neutral prompt frame, retry, fallback between candidates, the
// attempt timeline and token usage. Vendor transports (OpenAI Responses and
// Chat Completions, Codex streaming, Anthropic Messages) live in
// providers/<vendor> and implement the interface; the interface lives here.
//
// A Provider is an immutable, shared client, safe for concurrent use:
// options such as the tool set return a new value (WithTools) instead of
// changing it. Every call takes a context and returns when it is cancelled;
// a provider starts no goroutine that outlives the call.
//
// providers imports messages and nothing else from this module: never
// persistence, tools, supervision, actors, cmd or testkit, and not
// protoactor. Rate limits and backoff per candidate are run by transport
// actors in package actors, on top of this package.
package providers
